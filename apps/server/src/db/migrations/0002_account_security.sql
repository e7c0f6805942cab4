-- Account security (issue 3): authenticator apps, backup codes, brute-force counters, password requests.

-- The authenticator (TOTP) secret, encrypted with the server's key; null when none is set up.
alter table users add column totp_secret text;
-- A secret being set up or changed, until its first code is confirmed.
alter table users add column totp_pending_secret text;
-- The last accepted 30-second step: a code is accepted once, and never an older one.
alter table users add column totp_last_step bigint;
alter table users add column password_changed_at timestamptz;

-- One-time backup (recovery) codes; only their hashes are kept.
create table recovery_codes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  code_hash text not null,
  used_at timestamptz,
  created_at timestamptz not null default now(),
  unique (user_id, code_hash)
);

-- Failed-attempt counters for brute-force limits, shared by every server instance.
create table auth_limits (
  key text primary key,
  count integer not null,
  window_ends_at timestamptz not null
);
create index auth_limits_window on auth_limits (window_ends_at);

-- Single-use tokens: a password reset link or a first-password set-up; only hashes are kept.
create table password_requests (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  purpose text not null check (purpose in ('reset', 'set_first')),
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index password_requests_user on password_requests (user_id);

create index security_events_user_at on security_events (user_id, at desc);
