-- Onboarding wizard (spec §3 Onboarding state, §7) and the family plan benefit (spec §3 Family benefit).

-- Each wizard event (Next, Skip, Back, the add-to-enterprise outcome), as the wizard posts it.
create table onboarding_events (
  id bigint generated always as identity primary key,
  team_id uuid not null references teams (id) on delete cascade,
  user_id uuid references users (id) on delete set null,
  stage text not null,
  action text not null,
  event text not null,
  state text not null,
  payload jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index onboarding_events_team on onboarding_events (team_id, created_at);

-- One admin-consent round trip: the single-use state sent to the cloud and checked on its return.
create table onboarding_consents (
  state_hash text primary key,
  team_id uuid not null references teams (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  cloud text not null,
  provider text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  outcome text
);
create index onboarding_consents_team on onboarding_consents (team_id);

-- Who gets the family plan as a benefit: nobody, every member, or the members of chosen groups.
create table family_benefits (
  team_id uuid primary key references teams (id) on delete cascade,
  grant_type text not null default 'none' check (grant_type in ('none', 'all', 'groups')),
  updated_at timestamptz not null default now()
);
create table family_benefit_groups (
  team_id uuid not null references teams (id) on delete cascade,
  group_id uuid not null references groups (id) on delete cascade,
  primary key (team_id, group_id)
);

-- The benefit itself, held by a member since this moment (null: not held).
alter table members add column family_benefit_since timestamptz;
create index members_family_benefit on members (team_id) where family_benefit_since is not null;
