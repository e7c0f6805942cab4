-- Event logs and SIEM export.
--
-- One store of every team's events, partitioned by the month the Hub recorded them (retention
-- drops whole months), each team's rows forming a hash chain: `hash` is sha256 over the row's
-- canonical form, which includes `prev_hash`, the hash of the team's previous event (seq - 1).
-- The Hub creates each month's partition ahead of time (at start and hourly, events.repository.ts
-- `ensureMonth`); the default partition only catches a row whose month was not made yet.
create table event_log (
  team_slug text not null,
  seq bigint not null,
  id uuid not null,
  actor text not null default '',
  actor_type text not null check (actor_type in ('admin', 'member', 'app', 'scim', 'system')),
  activity text not null,
  component text not null,
  target text not null default '',
  ip text not null default '',
  device text not null default '',
  occurred_at timestamptz not null,
  recorded_at timestamptz not null,
  outcome text not null default 'success' check (outcome in ('success', 'failure')),
  detail jsonb not null default '{}',
  prev_hash text not null,
  hash text not null,
  primary key (team_slug, seq, recorded_at)
) partition by range (recorded_at);
create table event_log_default partition of event_log default;
-- Keyset paging newest first, and the filters' columns within a team.
create index event_log_actor on event_log (team_slug, actor, seq);
create index event_log_activity on event_log (team_slug, activity, seq);
create index event_log_component on event_log (team_slug, component, seq);
create index event_log_ip on event_log (team_slug, ip, seq);
create index event_log_occurred on event_log (team_slug, occurred_at);

-- The head of each team's chain: appends lock this row, so seq is gap-free and the chain linear.
create table event_chain_heads (
  team_slug text primary key,
  seq bigint not null default 0,
  hash text not null,
  -- Retention removed everything below this seq; the checkpoint event there names the hash it followed.
  floor_seq bigint not null default 1
);

-- De-duplication by the source's event id (the licence server's feed is at-least-once).
create table event_ids (
  team_slug text not null,
  id uuid not null,
  primary key (team_slug, id)
);

-- Per team: retention and whether SIEM export runs.
create table event_log_settings (
  team_slug text primary key,
  delete_after_days int check (delete_after_days is null or delete_after_days >= 1),
  siem_enabled boolean not null default true,
  updated_at timestamptz not null default now()
);

-- A team's SIEM destination: its form (secrets included: the Hub must present them), its state,
-- and the delivery cursor (the last seq the destination acknowledged).
create table siem_destinations (
  id uuid primary key default gen_random_uuid(),
  team_slug text not null unique,
  siem_tool text not null,
  config jsonb not null,
  status text not null default 'tested',
  is_active boolean not null default false,
  cursor_seq bigint not null default 0,
  delivered_count bigint not null default 0,
  last_error text,
  last_success_at timestamptz,
  last_attempt_at timestamptz,
  -- One delivery at a time per destination, without holding a transaction during the send.
  lease_until timestamptz,
  -- Exponential backoff with jitter after failures: no attempt before next_attempt_at.
  failures int not null default 0,
  next_attempt_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- The pull API's token per team (SIEMs that poll): only its hash; a new one replaces the old.
create table event_pull_tokens (
  team_slug text primary key,
  token_hash text not null unique,
  created_at timestamptz not null default now()
);
