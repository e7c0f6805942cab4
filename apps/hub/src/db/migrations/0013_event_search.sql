-- Free-text search off the append path (issue 12).
--
-- The trigram index on event_log (0012) was 45 % of an append, and appends hold the team's chain
-- lock: the index capped ingest. Search now reads its own narrow table, filled right after each
-- append by the team's indexer (features/events/search-indexer.ts), up to a per-team progress
-- mark; a search reads the rows above the mark from event_log directly, so it never misses one.
drop index if exists event_log_search;

-- One row per event: its searched columns joined by U+001F (no column holds it, and a search
-- value is matched within one column: a pattern without U+001F cannot span two).
create table event_search (
  team_slug text not null,
  seq bigint not null,
  -- event_log's partition key, so a lookup of a match reaches one partition.
  recorded_at timestamptz not null,
  body text not null,
  primary key (team_slug, seq)
);
create index event_search_body on event_search using gin (body gin_trgm_ops);

-- Each team's events are in event_search up to and including this seq.
create table event_search_progress (
  team_slug text primary key,
  seq bigint not null
);

insert into event_search (team_slug, seq, recorded_at, body)
select team_slug, seq, recorded_at,
  actor || E'\x1f' || target || E'\x1f' || activity || E'\x1f' || ip || E'\x1f' || device || E'\x1f' || component
from event_log;
insert into event_search_progress (team_slug, seq) select team_slug, max(seq) from event_log group by team_slug;
