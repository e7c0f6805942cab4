-- Member devices (spec §3 Device info) and the team logo (settings/organization-branding).

-- A device a member uses the apps on, as the apps last reported it. `device_id` is the app's own
-- stable id; a report for a known (member, device_id) updates the row. The Hub's ingestion API
-- writes here; `hub_authenticated_at` is when the device last authenticated with the team's Hub.
create table member_devices (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  member_id uuid not null references members (id) on delete cascade,
  device_id text not null,
  name text not null,
  type text not null check (type in ('desktop', 'mobile', 'browser_extension', 'web')),
  os text not null,
  os_version text not null default '',
  browser text,
  app_version text not null,
  first_seen_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  hub_authenticated_at timestamptz,
  unique (member_id, device_id)
);
-- The members list's hub-authentication filter asks "has any authenticated device" per member.
create index member_devices_hub on member_devices (member_id) where hub_authenticated_at is not null;

-- Who is in which groups, from the member's side (a member's devices page, removals).
create index group_members_member on group_members (member_id);

-- One logo per team, kept in the database so every server instance serves it. `id` is new for
-- each image: its URL then never changes meaning, and browsers may cache it for good.
create table team_logos (
  team_id uuid primary key references teams (id) on delete cascade,
  id uuid not null unique default gen_random_uuid(),
  content_type text not null check (content_type in ('image/png', 'image/jpeg', 'image/webp')),
  bytes bytea not null,
  width integer not null,
  height integer not null,
  updated_at timestamptz not null default now()
);
