-- Four-eyes approval (docs/approvals.md): each team's policy, its requests, and each person's
-- decision on a request. A team without a policy row has the default: off.
create table approval_policies (
  team_id uuid primary key references teams (id) on delete cascade,
  policy jsonb not null,
  updated_by uuid references users (id) on delete set null,
  updated_at timestamptz not null default now()
);

create table approval_requests (
  id uuid primary key default gen_random_uuid(),
  team_id uuid not null references teams (id) on delete cascade,
  action text not null,
  -- The gated call (an endpoint's name) and its input, exactly as it will run, with its hash.
  call text not null,
  payload jsonb not null,
  payload_hash text not null,
  requester_id uuid not null references users (id) on delete cascade,
  -- Who asked, as the approved action runs: the caller when they asked.
  requester jsonb not null,
  requester_email text not null,
  requester_name text not null default '',
  summary text not null,
  changes jsonb not null default '[]',
  approvers_required int not null check (approvers_required >= 2),
  apply text not null check (apply in ('on_approval', 'by_requester')),
  status text not null default 'pending'
    check (status in ('pending', 'approved', 'rejected', 'expired', 'withdrawn', 'applied', 'failed')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  closed_at timestamptz,
  closed_reason text
);
create index approval_requests_team on approval_requests (team_id, created_at desc);
create index approval_requests_open on approval_requests (expires_at) where status in ('pending', 'approved');

-- One decision per person (user_id), whatever their sessions or scopes; the operator's has no user.
create table approval_decisions (
  request_id uuid not null references approval_requests (id) on delete cascade,
  user_id uuid references users (id) on delete set null,
  email text not null,
  name text not null default '',
  decision text not null check (decision in ('approved', 'rejected')),
  comment text not null default '',
  operator boolean not null default false,
  decided_at timestamptz not null default now()
);
create unique index approval_decisions_person on approval_decisions (request_id, user_id);
