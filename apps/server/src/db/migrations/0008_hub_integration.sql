-- Hub integration (issue 6): a credential exists before it is set up on a Hub (server_url null
-- until then), has a name the admins give it, and the team states where it hosts its services.
alter table hubs alter column server_url drop not null;
alter table hubs add column name text not null default 'Hub';
alter table teams add column aux_hosting text not null default 'not_set';
