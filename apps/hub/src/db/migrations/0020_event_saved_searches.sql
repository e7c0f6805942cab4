-- Saved searches of the event log: a name for a set of filters, private to the admin who saved it
-- (owner) or shared with the team's admins who read the log.
create table event_saved_searches (
  id uuid primary key,
  team_slug text not null,
  owner text not null,
  name text not null check (length(name) between 1 and 80),
  shared boolean not null default false,
  filters jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- The list an admin sees (theirs and the shared ones) and the per-admin count.
create index event_saved_searches_owner on event_saved_searches (team_slug, owner);
create index event_saved_searches_shared on event_saved_searches (team_slug) where shared;
