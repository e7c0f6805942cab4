-- SAML single sign-on (issue 13): the connectors' identity-provider side, the service provider's
-- own signing key per team, the SAML requests we issued (InResponseTo) and the assertions already
-- used (one-time use across instances).
alter table sso_configs
  add column metadata_url text,
  add column idp_entity_id text,
  add column idp_sso_url text,
  add column idp_certificates text[] not null default '{}',
  -- Which signature the ACS demands: the assertion's, the whole response's, or both.
  add column sign_mode text not null default 'assertion' check (sign_mode in ('assertion', 'response', 'both')),
  -- Set by a successful test; cleared whenever the identity provider's side changes.
  add column tested_at timestamptz,
  add column updated_at timestamptz not null default now();

-- The service provider's signing key of a team: the private key sealed (AES-256-GCM under the
-- server's sealing key), the self-signed certificate public.
create table sso_sp_keys (
  team_id uuid primary key references teams (id) on delete cascade,
  private_key_sealed text not null,
  certificate text not null,
  created_at timestamptz not null default now()
);

-- Every AuthnRequest we sent: a response must answer one of them (InResponseTo), for its team and
-- connector, once, before it expires. A test request keeps its result for the tester.
create table saml_requests (
  id text primary key,
  team_id uuid not null references teams (id) on delete cascade,
  config_id uuid not null references sso_configs (id) on delete cascade,
  email text,
  test boolean not null default false,
  requested_by uuid references users (id) on delete cascade,
  expires_at timestamptz not null,
  consumed_at timestamptz,
  outcome text,
  result jsonb,
  created_at timestamptz not null default now()
);
create index saml_requests_expiry on saml_requests (expires_at);

-- Assertions already accepted, until they expire: a second use of one is refused on any instance.
create table saml_replay (
  issuer text not null,
  assertion_id text not null,
  expires_at timestamptz not null,
  primary key (issuer, assertion_id)
);
create index saml_replay_expiry on saml_replay (expires_at);
