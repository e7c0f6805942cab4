-- Policies (issue 5): the team policy, each group's override, and every change with its before and after.
create table team_policies (
  team_id uuid primary key references teams (id) on delete cascade,
  -- key -> {policy, include?, exclude?}
  policy_json jsonb not null default '{}',
  updated_at timestamptz not null default now()
);

create table group_policies (
  group_id uuid primary key references groups (id) on delete cascade,
  -- key -> value
  policy_json jsonb not null default '{}',
  -- key -> true when the members may change the value in their apps
  not_enforced_json jsonb not null default '{}',
  updated_at timestamptz not null default now()
);

create table policy_history (
  id bigserial primary key,
  team_id uuid not null references teams (id) on delete cascade,
  actor_user_id uuid references users (id) on delete set null,
  -- Kept as text: the history outlives the admin's account.
  actor_email text not null,
  scope text not null check (scope in ('team', 'group')),
  -- No foreign key: the history outlives the group; its name is kept too.
  group_id uuid,
  group_name text,
  action text not null check (action in ('update', 'restore')),
  restored_from bigint,
  before jsonb not null,
  after jsonb not null,
  created_at timestamptz not null default now()
);
create index policy_history_team on policy_history (team_id, id desc);
