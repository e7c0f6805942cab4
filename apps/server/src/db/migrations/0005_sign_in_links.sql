-- Sign-in links of issue 3: single-use, short-lived tokens that start or finish a sign-in from
-- outside the login form (the family app, the SSO return, an onboarding invitation). Only the
-- token's hash is stored; a token is spent by the statement that accepts it.
create table login_tokens (
  token_hash text primary key,
  purpose text not null check (purpose in ('app_login', 'sso', 'onboarding')),
  user_id uuid not null references users (id) on delete cascade,
  team_id uuid not null references teams (id) on delete cascade,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index login_tokens_user on login_tokens (user_id, purpose);

-- The least of SSO that sign-in needs to route an email (spec §4): whether a team has an active
-- SAML connector, and whether it is enforced. Managing connectors (metadata, tests) is the SSO
-- issue's; without IdP metadata no SAML request can be made.
create table sso_configs (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  config_name text not null,
  idp_type text not null,
  metadata_xml text,
  active boolean not null default false,
  created_at timestamptz not null default now()
);
create index sso_configs_team on sso_configs (team_id) where active;

create table sso_policies (
  team_id uuid primary key references teams (id) on delete cascade,
  enforce_sso boolean not null default false,
  -- Admins who may still sign in without SSO (spec §6).
  excluded_admins uuid[] not null default '{}'
);
