-- Event logs (issue 12): the server's events on their way to the team's Hub. A row is written in
-- the transaction of the change it records (recordEvent), read by the forwarding job in `seq`
-- order and deleted once every Hub of the team has taken it (the Hub de-duplicates by `id`).
create table event_outbox (
  seq bigserial primary key,
  id uuid not null unique,
  team_id uuid not null references teams (id) on delete cascade,
  event jsonb not null,
  created_at timestamptz not null default now()
);
create index event_outbox_team on event_outbox (team_id, seq);
