-- SCIM 2.0 provisioning (issue 14): connectors with hashed bearer tokens, their request log, and
-- the SCIM attributes of members and groups an identity provider manages.
create table scim_connectors (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  idp text not null check (idp in ('entra', 'okta', 'onelogin', 'jumpcloud', 'google', 'generic')),
  name text not null,
  -- HMAC-SHA-256 of the bearer token under the server's code-hash key; the token itself is shown once.
  token_hash text not null,
  token_hint text not null,
  -- After a rotation the previous token still works until previous_valid_until (the overlap window).
  previous_token_hash text,
  previous_valid_until timestamptz,
  created_at timestamptz not null default now(),
  rotated_at timestamptz,
  revoked_at timestamptz,
  last_request_at timestamptz
);
create unique index scim_connectors_token on scim_connectors (token_hash);
create index scim_connectors_previous on scim_connectors (previous_token_hash) where previous_token_hash is not null;
create index scim_connectors_team on scim_connectors (team_id, created_at);

create table scim_requests (
  id bigserial primary key,
  connector_id uuid not null references scim_connectors (id) on delete cascade,
  at timestamptz not null default now(),
  method text not null,
  path text not null,
  status integer not null,
  duration_ms integer not null,
  error text
);
create index scim_requests_connector_at on scim_requests (connector_id, at desc, id desc);

-- A member or group provisioned by SCIM: its IdP-side id, the attributes Latchkey keeps as sent
-- (name parts, enterprise extension, ...) and a version for ETags.
alter table members add column scim_external_id text;
alter table members add column scim_attributes jsonb not null default '{}';
alter table members add column scim_version integer not null default 1;
alter table members add column updated_at timestamptz not null default now();
alter table groups add column scim_connector_id uuid references scim_connectors (id) on delete set null;
alter table groups add column scim_external_id text;
alter table groups add column scim_version integer not null default 1;
alter table groups add column updated_at timestamptz not null default now();
-- Groups an IdP manages are read-only in the console until the connector is revoked.
alter table groups add column scim_managed boolean not null default false;

-- The ETag (meta.version) moves with every change a SCIM client can see, whoever makes it: the
-- console's suspend, restore, remove or rename too, not only SCIM's own writes (which bump it themselves).
create function members_scim_version() returns trigger language plpgsql as $$
begin
  if new.scim_version = old.scim_version
     and (new.email, new.name, new.status, new.deboarded_at) is distinct from (old.email, old.name, old.status, old.deboarded_at) then
    new.scim_version := old.scim_version + 1;
    new.updated_at := now();
  end if;
  return new;
end $$;
create trigger members_scim_version before update on members for each row execute function members_scim_version();

create function groups_scim_version() returns trigger language plpgsql as $$
begin
  if new.scim_version = old.scim_version and new.name is distinct from old.name then
    new.scim_version := old.scim_version + 1;
    new.updated_at := now();
  end if;
  return new;
end $$;
create trigger groups_scim_version before update on groups for each row execute function groups_scim_version();
