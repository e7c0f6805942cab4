-- Event logs at ten million events a team (scripts/bench-events.ts).
--
-- Free-text search reads its matches through trigrams of the searched columns together, instead of
-- every row (pg_trgm, as 0005; PGlite has it too). The query keeps its per-column test as well, so
-- a match across two columns' boundary is not a match.
create index event_log_search on event_log
  using gin ((actor || ' ' || target || ' ' || activity || ' ' || ip || ' ' || device || ' ' || component) gin_trgm_ops);

-- A date range as a range of the chain's seq: for each team and hour of occurred_at (hours since
-- 1970 UTC), the lowest and highest seq of the events that occurred in it (kept by every append).
-- A filtered page then walks the seq index inside that range, newest first, instead of sorting
-- every event of the range. Rows retention removed leave their hours behind: a wider range, never
-- a narrower one.
create table event_time_seqs (
  team_slug text not null,
  hour bigint not null,
  min_seq bigint not null,
  max_seq bigint not null,
  primary key (team_slug, hour)
);
insert into event_time_seqs (team_slug, hour, min_seq, max_seq)
select team_slug, floor(extract(epoch from occurred_at) / 3600)::bigint, min(seq), max(seq) from event_log group by 1, 2;
