-- Secrets the Hub generates for itself on first start (access-token signing key).
create table app_secrets (
  name text primary key,
  value text not null
);

-- A team this Hub serves. The licence server signs aux grants with `secret` and names the
-- registration by `credential_id` (the grant's kid). Kept as given: HMAC needs the key itself.
create table registrations (
  id uuid primary key default gen_random_uuid(),
  team_slug text not null,
  credential_id text not null unique,
  secret text not null,
  created_at timestamptz not null default now()
);
create index registrations_team on registrations (team_slug);

-- A console user's session at this Hub; its refresh tokens form one rotation family.
create table hub_sessions (
  id uuid primary key default gen_random_uuid(),
  registration_id uuid not null references registrations (id) on delete cascade,
  user_id text not null,
  email text not null,
  team_slug text not null,
  scopes text[] not null,
  device jsonb not null default '{}',
  created_at timestamptz not null default now(),
  absolute_expires_at timestamptz not null,
  revoked_at timestamptz,
  revoked_reason text
);
create index hub_sessions_registration on hub_sessions (registration_id);

-- Only hashes are stored; `used_at` marks a rotated token, whose reuse revokes the family.
create table hub_refresh_tokens (
  token_hash text primary key,
  session_id uuid not null references hub_sessions (id) on delete cascade,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index hub_refresh_tokens_session on hub_refresh_tokens (session_id);
