-- Which months can hold a search's match (issue 12).
--
-- A search below the newest events reads each month's trigram index in turn. A value whose words
-- are common but which matches nothing ("Vault 1234" where targets are "Vault N" and "Member N")
-- read every month's long posting lists for "vau" and "123": 70 ms alone, 350 ms under load. A
-- month holds a match exactly when one of its distinct column values does, and a team's distinct
-- values are far fewer than its events: looked up here first, a search reads only those months.
-- Filled by the search indexer in the same transaction as event_search (search-indexer.ts).
create table event_search_values (
  team_slug text not null,
  -- The UTC month of the events' recorded_at: the event_log partition they sit in.
  month date not null,
  -- One column's value, written as event_search's body is (INDEX_BODY: . @ _ - as ϙ ϛ ϝ ϟ).
  value text not null
);
-- Every stored event's values: a value of an event not indexed yet only makes a month read for nothing.
insert into event_search_values (team_slug, month, value)
select distinct team_slug, (date_trunc('month', recorded_at at time zone 'UTC'))::date,
  translate(v.value, 'ϙϛϝϟ.@_-', E'\x1e\x1e\x1e\x1eϙϛϝϟ')
from event_log, unnest(array[actor, target, activity, ip, device, component]) as v(value);

-- Unique by digest: a value may be longer than a b-tree entry allows.
create unique index event_search_values_key on event_search_values (team_slug, month, md5(value));
create index event_search_values_value on event_search_values using gin (value gin_trgm_ops);
