-- Member search reads one stored, lower-cased text instead of computing it for every row it checks.
alter table members add column search_text text generated always as (lower(email || ' ' || name)) stored;
drop index members_search_trgm;
create index members_search_trgm on members using gin (search_text gin_trgm_ops) where deboarded_at is null;

-- Keyset pages by email, and a search that walks them in order, read from the index alone: the
-- columns a search filters on travel with the email.
drop index members_current_email;
create index members_current_email on members (team_id, email) include (search_text, licensed, usage)
  where deboarded_at is null;
