-- Security findings 3 and 8.

-- A session minted from another (the family app's console link) ends when its parent does:
-- the link carries the parent's absolute end, and the new session takes the earlier of the two.
alter table login_tokens add column not_after timestamptz;

-- An email that already has an account is invited, not added: the person accepts by the
-- single-use link mailed to them (only its hash is kept), and only then administers the team.
create table admin_invitations (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  scopes text[] not null,
  token_hash text not null unique,
  invited_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  accepted_at timestamptz,
  cancelled_at timestamptz
);
-- One open invitation per person and team.
create unique index admin_invitations_open on admin_invitations (team_id, user_id)
  where accepted_at is null and cancelled_at is null;
