-- Alert rules: a search of the team's event log, a condition, a cooldown and destinations,
-- evaluated as events arrive (a cursor per team over the chain's seq).
create table alert_rules (
  id uuid primary key,
  team_slug text not null,
  name text not null,
  template text,
  filters jsonb not null,
  condition jsonb not null,
  cooldown_minutes integer not null default 0 check (cooldown_minutes between 0 and 10080),
  -- Each destination without its secret; the secrets sealed with the Hub's sealing key (never sent back).
  destinations jsonb not null,
  secrets_sealed text not null,
  enabled boolean not null default true,
  -- The chain's head when the rule was made or switched on: it looks at events after it only.
  from_seq bigint not null default 0,
  created_by text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (team_slug, name)
);
create index alert_rules_enabled on alert_rules (team_slug) where enabled;

-- How far each team's log was evaluated, and the run that holds it (a lease: one run per team at once).
create table alert_cursors (
  team_slug text primary key,
  cursor_seq bigint not null,
  lease_until timestamptz,
  last_run_at timestamptz
);

-- Matches of threshold rules still inside their window, per group (actor, address or target).
create table alert_matches (
  rule_id uuid not null references alert_rules (id) on delete cascade,
  group_key text not null,
  seq bigint not null,
  event_id uuid not null,
  recorded_at timestamptz not null,
  primary key (rule_id, group_key, seq)
);

-- Until when a rule (per group) stays quiet after it fired.
create table alert_cooldowns (
  rule_id uuid not null references alert_rules (id) on delete cascade,
  group_key text not null,
  until timestamptz not null,
  primary key (rule_id, group_key)
);

-- A firing is identified by its rule and window: evaluated again after a crash, it is not made twice.
create table alert_firings (
  id uuid primary key,
  rule_id uuid not null references alert_rules (id) on delete cascade,
  team_slug text not null,
  window_key text not null,
  group_key text not null default '',
  event_ids uuid[] not null,
  event_seqs bigint[] not null,
  test boolean not null default false,
  fired_at timestamptz not null default now(),
  unique (rule_id, window_key)
);
create index alert_firings_rule on alert_firings (rule_id, fired_at desc);

-- Each destination's delivery of a firing (retried on the job queue).
create table alert_deliveries (
  firing_id uuid not null references alert_firings (id) on delete cascade,
  destination_id text not null,
  kind text not null,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  last_error text,
  delivered_at timestamptz,
  primary key (firing_id, destination_id)
);
