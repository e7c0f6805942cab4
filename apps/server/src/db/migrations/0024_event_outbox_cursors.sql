-- Event logs (issue 12): each Hub of a team takes the outbox from its own cursor, so a Hub that is
-- down holds back only itself. A row is deleted once every set-up Hub of the team has passed it.
create table event_outbox_cursors (
  team_id uuid not null references teams (id) on delete cascade,
  credential_id text not null,
  delivered_seq bigint not null default 0,
  primary key (team_id, credential_id)
);
