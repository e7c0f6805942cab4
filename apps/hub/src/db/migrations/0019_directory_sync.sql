-- Directory sync: the team's LDAP or Active Directory connection, read by this Hub inside the
-- customer's network, and a log of every run (previews, applies, scheduled syncs).
create table directory_connections (
  team_slug text primary key,
  kind text not null check (kind in ('active_directory', 'openldap')),
  url text not null,
  security text not null check (security in ('ldaps', 'starttls', 'none')),
  ca_pem text not null default '',
  bind_dn text not null,
  -- Sealed with the Hub's sealing key (never sent back, never sent to a new address).
  bind_password_sealed text not null,
  base_dns jsonb not null,
  mapping jsonb not null,
  -- Members gone from the directory (or its filter) are removed rather than suspended.
  remove_missing boolean not null default false,
  -- Scheduled syncs every this many minutes (null: on demand only); they run once a preview was applied.
  interval_minutes integer check (interval_minutes between 15 and 10080),
  applied_at timestamptz,
  next_run_at timestamptz,
  updated_at timestamptz not null default now(),
  updated_by text not null
);

create table directory_runs (
  id uuid primary key,
  team_slug text not null,
  trigger text not null check (trigger in ('preview', 'apply', 'sync_now', 'schedule')),
  actor text not null,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  outcome text not null default 'running' check (outcome in ('running', 'previewed', 'applied', 'unchanged', 'failed')),
  error_code text,
  error_message text,
  -- What the plan holds (or held) by kind, and its first rows: what the console shows.
  counts jsonb not null default '{}',
  sample jsonb not null default '{}',
  -- A preview's plan, by hash: an apply runs only when the directory still gives the same plan.
  plan_hash text
);
create index directory_runs_team on directory_runs (team_slug, started_at desc);
-- One sync that changes things at a time per team: a second one finds this index taken.
create unique index directory_runs_one_applying on directory_runs (team_slug) where outcome = 'running' and trigger <> 'preview';
