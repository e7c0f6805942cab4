-- Trust between this server and its Hubs (docs/security.md): the server signs with an Ed25519
-- key kept in its configuration, never in the database; a credential identifies a connection and
-- keeps the Hub's public key (JWK). No secret is stored or shown any more. A Hub set up with a
-- shared secret must be set up again (with a setup key) before it is used.
alter table hubs drop column secret;
alter table hubs add column hub_key jsonb;
update hubs set server_url = null where hub_key is null;

create table used_nonces (
  id text primary key,
  expires_at timestamptz not null
);
create index used_nonces_expiry on used_nonces (expires_at);
