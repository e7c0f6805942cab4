-- People: licences, member status, trigram search, and an event recorded for every admin action.
create extension if not exists pg_trgm;

-- Licences bought; -1 is unlimited (spec §3 Subscription total_license).
alter table teams add column total_licences integer not null default -1;

alter table members add column status text not null default 'active' check (status in ('invited', 'active', 'suspended'));
alter table members add column invited_at timestamptz;

-- Keyset pages of current members by email: one index walk per page, however deep.
create index members_current_email on members (team_id, email) where deboarded_at is null;
-- Substring search over email and name (ILIKE '%term%') without scanning the team.
create index members_search_trgm on members using gin (lower(email || ' ' || name) gin_trgm_ops) where deboarded_at is null;

-- What admins did to members (invite, licence, suspend, remove), for the event log.
create table member_events (
  id bigserial primary key,
  team_id uuid not null references teams (id) on delete cascade,
  at timestamptz not null default now(),
  actor_id uuid references users (id) on delete set null,
  action text not null,
  target_email text not null,
  detail jsonb not null default '{}'
);
create index member_events_team_at on member_events (team_id, at desc);

-- Console interactions (spec §7 analytics events).
create table analytics_events (
  id bigserial primary key,
  team_id uuid not null references teams (id) on delete cascade,
  user_id uuid references users (id) on delete set null,
  at timestamptz not null default now(),
  interaction_type text not null,
  object text not null,
  section text not null
);
