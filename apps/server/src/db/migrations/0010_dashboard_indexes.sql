-- The dashboard at 100,000 members, read from indexes alone:
-- joiners and leavers by month read only the last year of each, instead of scanning the team 24
-- times (450 → 17 ms);
create index members_onboarded on members (team_id, onboarded_at);
create index members_deboarded on members (team_id, deboarded_at) where deboarded_at is not null;
-- the adoption and licence counts, and the member count, read a narrow index instead of every
-- row (24 → 9 ms).
create index members_usage on members (team_id, usage, licensed) where deboarded_at is null;
