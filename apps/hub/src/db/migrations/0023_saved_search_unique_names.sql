-- A saved search's name is unique where admins see it side by side: a shared name in its team, a
-- private name for its author (case-insensitively, as the service compares them). The service checks
-- first; these indexes settle two saves of the same name at the same instant.
-- Names made twice before these indexes existed: every one but the oldest gets its id's start appended
-- (kept within the 80 characters a name may have), so nothing is lost and the indexes can be built.
with ranked as (
  select id, row_number() over (partition by team_slug, lower(name) order by created_at, id) as n
  from event_saved_searches where shared
)
update event_saved_searches s
set name = left(s.name, 69) || ' (' || left(s.id::text, 8) || ')', updated_at = now()
from ranked where ranked.id = s.id and ranked.n > 1;

with ranked as (
  select id, row_number() over (partition by team_slug, owner, lower(name) order by created_at, id) as n
  from event_saved_searches where not shared
)
update event_saved_searches s
set name = left(s.name, 69) || ' (' || left(s.id::text, 8) || ')', updated_at = now()
from ranked where ranked.id = s.id and ranked.n > 1;

create unique index event_saved_searches_shared_name on event_saved_searches (team_slug, lower(name)) where shared;
create unique index event_saved_searches_private_name on event_saved_searches (team_slug, owner, lower(name)) where not shared;
