-- Just-in-time admin rights: the scopes an admin may elevate to (beside the standing ones), the
-- team's setting, and each elevation, pending, active until its expiry, or ended.
alter table team_admins add column eligible_scopes text[] not null default '{}';

create table admin_elevation_settings (
  team_id uuid primary key references teams(id) on delete cascade,
  enabled boolean not null default false,
  self_scopes text[] not null default '{}',
  updated_at timestamptz not null default now()
);

create table admin_elevations (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  scope text not null,
  minutes integer not null check (minutes between 15 and 480),
  reason text not null,
  status text not null check (status in ('pending', 'active', 'ended')),
  request_id text,
  approved_by uuid references users(id) on delete set null,
  requested_at timestamptz not null default now(),
  expires_at timestamptz,
  ended_at timestamptz,
  ended_reason text
);
-- One open elevation per admin and scope.
create unique index admin_elevations_open on admin_elevations (team_id, user_id, scope) where status in ('pending', 'active');
create index admin_elevations_expiry on admin_elevations (expires_at) where status = 'active';
