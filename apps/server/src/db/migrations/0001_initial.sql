-- Secrets the server generates for itself on first start (token signing key).
create table app_secrets (
  name text primary key,
  value text not null
);

create table users (
  id uuid primary key default gen_random_uuid(),
  email text not null unique,
  name text not null default '',
  password_hash text,
  -- 'password': password then a second factor; 'otp': emailed code only.
  auth_type text not null default 'password' check (auth_type in ('password', 'otp')),
  created_at timestamptz not null default now()
);

create table teams (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique,
  name text not null,
  team_type text not null check (team_type in ('organization', 'family')),
  organization_type text not null check (organization_type in ('starter', 'standard', 'enterprise', 'basic', 'teams')),
  bill_state text not null default 'billed',
  bill_type text not null default 'manual',
  business_cloud text not null default 'none',
  purchase_partner text,
  is_team_policy_present boolean not null default false,
  started_on date not null default current_date,
  valid_till date not null,
  onboarding_wizard jsonb not null default '{"show_wizard": false, "enable_console": true, "resume_notification": false, "state": {"stage": "all_set"}}',
  created_at timestamptz not null default now()
);

create table team_admins (
  team_id uuid not null references teams (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  scopes text[] not null,
  primary key (team_id, user_id)
);
create index team_admins_user on team_admins (user_id);

create table members (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  email text not null,
  name text not null default '',
  licensed boolean not null default true,
  -- How the member uses the apps: active, inactive (not using) or unresponsive (never used).
  usage text not null default 'unresponsive' check (usage in ('active', 'inactive', 'unresponsive')),
  onboarded_at timestamptz not null default now(),
  deboarded_at timestamptz,
  last_active_at timestamptz,
  unique (team_id, email)
);

create table groups (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  name text not null,
  policy_override boolean not null default false,
  priority_level integer not null default 999999,
  created_at timestamptz not null default now(),
  unique (team_id, name)
);

create table group_members (
  group_id uuid not null references groups (id) on delete cascade,
  member_id uuid not null references members (id) on delete cascade,
  primary key (group_id, member_id)
);

-- A Hub registered to a team; `secret` signs the aux grants the Hub accepts.
create table hubs (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  server_url text not null,
  credential_id text not null unique,
  secret text not null,
  hub_version text,
  services jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index hubs_team on hubs (team_id, created_at);

create table email_codes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  team_id uuid not null references teams (id) on delete cascade,
  code_hash text not null,
  attempts integer not null default 0,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index email_codes_user on email_codes (user_id, team_id, created_at desc);

-- A signed-in console session; its refresh tokens form one rotation family.
create table sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  team_id uuid not null references teams (id) on delete cascade,
  created_at timestamptz not null default now(),
  absolute_expires_at timestamptz not null,
  revoked_at timestamptz,
  revoked_reason text
);

create table refresh_tokens (
  token_hash text primary key,
  session_id uuid not null references sessions (id) on delete cascade,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index refresh_tokens_session on refresh_tokens (session_id);

-- Sign-in successes and failures, kept for the event log.
create table security_events (
  id bigserial primary key,
  at timestamptz not null default now(),
  kind text not null,
  email text,
  user_id uuid,
  team_id uuid,
  ip text,
  detail jsonb not null default '{}'
);
create index security_events_team_at on security_events (team_id, at desc);
