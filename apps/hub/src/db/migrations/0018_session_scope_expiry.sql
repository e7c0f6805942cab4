-- Just-in-time admin rights: when each time-bound scope of a session falls away (epoch ms by
-- scope), as the licence server signed it into the grant or re-stated it on a refresh. The guard
-- drops a scope past its expiry by itself, whatever access token the caller presents.
alter table hub_sessions add column scope_expiry jsonb not null default '{}'::jsonb;
