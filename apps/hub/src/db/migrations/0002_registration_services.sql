-- The auxiliary services a team has switched on at this Hub (the licence server sets them).
alter table registrations add column services text[] not null default '{}';
