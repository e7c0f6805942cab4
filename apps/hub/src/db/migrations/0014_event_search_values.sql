-- Search by value, not by trigram of every event.
--
-- 0013's trigram index on each event's text cost 30 µs an event to keep up: the search indexer took
-- as much CPU as the appends it followed, and ingest (CPU-bound on two cores) fell below its target.
-- A no-match of common words ("Vault 1234": targets are "Vault N" and "Member N") also read every
-- month's long posting lists for "vau" and "123": 350 ms under load.
--
-- Now a team's distinct column values are kept per month (event_search_values), with the trigram
-- index on them: a team has far fewer distinct values than events. Each event's index row holds the
-- keys of its six values, in a GIN index of six entries an event. A search finds the values that
-- match in the first, then the events holding one of them in the second, month by month: a month
-- without a matching value is not read.

-- The fill below groups every stored event's values: in memory rather than sorted on disk.
set local work_mem = '256MB';

-- A value's key: the first 64 bits of its MD5 (stable across PostgreSQL versions, unlike hashtext).
create function event_value_key(value text) returns bigint
  language sql immutable strict parallel safe
  as $$ select ('x' || substr(md5(value), 1, 16))::bit(64)::bigint $$;

create table event_search_values (
  team_slug text not null,
  -- The UTC month of the events' recorded_at: the event_log partition they sit in.
  month date not null,
  -- One column's value, as the event holds it.
  value text not null
);

drop table event_search;
create table event_search (
  team_slug text not null,
  seq bigint not null,
  recorded_at timestamptz not null,
  -- event_value_key of the event's actor, target, activity, ip, device and component values.
  value_keys bigint[] not null,
  primary key (team_slug, seq, recorded_at)
) partition by range (recorded_at);
create table event_search_default partition of event_search default;
do $$
declare p record;
begin
  for p in
    select c.relname, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class t on t.oid = i.inhparent
    where t.relname = 'event_log' and c.relname <> 'event_log_default'
  loop
    execute format('create table %I partition of event_search %s', replace(p.relname, 'event_log_', 'event_search_'), p.bound);
  end loop;
end $$;

-- Everything stored is indexed again (the same as 0013's fill: event_search_progress stays).
insert into event_search (team_slug, seq, recorded_at, value_keys)
select e.team_slug, e.seq, e.recorded_at, array[
  event_value_key(e.actor), event_value_key(e.target), event_value_key(e.activity),
  event_value_key(e.ip), event_value_key(e.device), event_value_key(e.component)]
from event_log e join event_search_progress p on p.team_slug = e.team_slug where e.seq <= p.seq;
insert into event_search_values (team_slug, month, value)
select distinct e.team_slug, (date_trunc('month', e.recorded_at at time zone 'UTC'))::date, v.value
from event_log e join event_search_progress p on p.team_slug = e.team_slug,
  unnest(array[e.actor, e.target, e.activity, e.ip, e.device, e.component]) as v(value)
where e.seq <= p.seq;

create index event_search_value_keys on event_search using gin (value_keys);
-- Unique by digest: a value may be longer than a b-tree entry allows.
create unique index event_search_values_key on event_search_values (team_slug, month, md5(value));
-- The trigram index on each value with . @ _ - written as ϙ ϛ ϝ ϟ (and those letters as U+001E), so
-- that an address or an IP is one word to it (event-search.repository.ts indexText). An expression:
-- translate() costs a microsecond a value, and a value already known is never indexed again.
create index event_search_values_value on event_search_values
  using gin (translate(value, 'ϙϛϝϟ.@_-', E'\x1e\x1e\x1e\x1eϙϛϝϟ') gin_trgm_ops);
