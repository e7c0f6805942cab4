-- Aux grants already exchanged, by their jti: a grant is good for one exchange only, so one that
-- leaks from the browser within its minute cannot open a second Hub session. Rows outlive the
-- grant by nothing; expired ones are pruned as new ones arrive.
create table used_aux_grants (
  jti text primary key,
  expires_at timestamptz not null
);
create index used_aux_grants_expiry on used_aux_grants (expires_at);
