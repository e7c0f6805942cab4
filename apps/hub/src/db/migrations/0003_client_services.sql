-- A member's device enrolled through the ingestion API; only the hash of its credential is kept.
create table devices (
  id uuid primary key default gen_random_uuid(),
  team_slug text not null,
  email text not null,
  name text not null,
  os text not null default '',
  app_version text not null default '',
  public_key text,
  secret_hash text not null,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index devices_team_email on devices (team_slug, email);

-- The latest vault health a member's apps reported: counts and a score, never secrets.
create table vault_summaries (
  id uuid primary key default gen_random_uuid(),
  team_slug text not null,
  email text not null,
  total_items int not null,
  weak int not null,
  reused int not null,
  old int not null,
  compromised int not null,
  score int not null,
  updated_at timestamptz not null default now(),
  unique (team_slug, email)
);
create index vault_summaries_team_score on vault_summaries (team_slug, score, email);

-- Share links created by members' apps, with their limits and views.
create table share_links (
  id uuid primary key default gen_random_uuid(),
  team_slug text not null,
  email text not null,
  device_id uuid not null references devices (id) on delete cascade,
  label text not null default '',
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  view_limit int not null,
  views int not null default 0,
  revoked_at timestamptz,
  revoked_by text
);
create index share_links_team_created on share_links (team_slug, created_at desc);

-- A team's sharing limits; absent means the defaults.
create table sharing_limits (
  team_slug text primary key,
  max_expiry_hours int not null,
  max_views int not null,
  updated_at timestamptz not null default now()
);

-- Members' account recovery requests; an approved one carries its link's expiry.
create table recovery_requests (
  id uuid primary key default gen_random_uuid(),
  team_slug text not null,
  email text not null,
  device_id uuid references devices (id) on delete set null,
  state text not null default 'pending',
  created_at timestamptz not null default now(),
  approved_by text,
  approved_at timestamptz,
  link_expires_at timestamptz
);
create index recovery_requests_team_created on recovery_requests (team_slug, created_at desc);
-- One open request per member at a time.
create unique index recovery_requests_one_pending on recovery_requests (team_slug, email) where state = 'pending';

-- The recovery group: members asked to be recovery admins (pending) and those who accepted (active).
create table recovery_admins (
  id uuid primary key default gen_random_uuid(),
  team_slug text not null,
  email text not null,
  teamuser_id text not null,
  state text not null default 'pending',
  requested_by text not null,
  created_at timestamptz not null default now(),
  accepted_at timestamptz,
  accepted_device_id uuid references devices (id) on delete set null,
  unique (team_slug, email)
);

-- A team's recovery settings; absent means the defaults (120-minute links, recovery admins notified).
create table recovery_settings (
  team_slug text primary key,
  link_expiration_period int not null,
  recipient_type text not null,
  recipient_emails text[] not null default '{}',
  updated_at timestamptz not null default now()
);

-- Activity events the apps send, kept for the event logs service.
create table client_events (
  id bigserial primary key,
  team_slug text not null,
  email text not null,
  device_id uuid not null references devices (id) on delete cascade,
  type text not null,
  occurred_at timestamptz not null,
  detail jsonb not null default '{}',
  received_at timestamptz not null default now()
);
create index client_events_team_time on client_events (team_slug, occurred_at desc);
