-- Trust between the licence server and this Hub (docs/security.md): the server signs grants and
-- calls with an Ed25519 key only it holds; a registration keeps its public key (JWK), never a
-- secret that could mint an identity. Registrations made with a shared secret cannot be trusted
-- any more: they keep their data but accept nothing until the server registers again.
alter table registrations add column server_key jsonb;
alter table registrations add column server_url text;
alter table registrations drop column secret;

-- The console session a Hub session came from, so that its end (pushed by the server, or found
-- on a refresh re-check) ends the Hub session too.
alter table hub_sessions add column console_sid text;
create index hub_sessions_console on hub_sessions (team_slug, console_sid);
create index hub_sessions_user on hub_sessions (team_slug, user_id);

-- One-time ids spent here: nonces of signed calls and of setup keys. Pruned as new ones arrive.
create table used_nonces (
  id text primary key,
  expires_at timestamptz not null
);
create index used_nonces_expiry on used_nonces (expires_at);

-- Grant ids are spent in used_nonces now, with the other one-time ids.
drop table used_aux_grants;
