-- Invoice numbers count per team: a team's first invoice is LK-000001, whatever other teams were
-- billed before. `number` stays the database-wide identity the previous release writes;
-- `team_number` is the number shown, unique within the team (null only on an invoice the previous
-- release issued during the update, shown by `number` until then).
alter table invoices add column team_number integer;
update invoices i set team_number = n.team_number
  from (select id, row_number() over (partition by team_id order by number) as team_number from invoices) n
  where n.id = i.id;
create unique index invoices_team_number on invoices (team_id, team_number);
