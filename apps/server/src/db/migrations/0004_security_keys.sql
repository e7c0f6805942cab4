-- Security keys (WebAuthn) of issue 3; 0002 was already applied where the console runs.

create table security_keys (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  credential_id text not null unique,
  public_key text not null,
  counter bigint not null default 0,
  transports text[] not null default '{}',
  name text not null default '',
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index security_keys_user on security_keys (user_id);

-- A WebAuthn challenge, answered once, within five minutes.
create table webauthn_challenges (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  purpose text not null check (purpose in ('register', 'sign_in')),
  challenge text not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index webauthn_challenges_user on webauthn_challenges (user_id, purpose, expires_at desc);
