-- The auxiliary services a team has switched on at this Hub (the licence server sets them).
alter table registrations add column services text[] not null default '{}';
-- Registrations made before this column ran every service ungated: they keep doing so until the
-- console switches one off.
update registrations set services = '{integration,audit,audit_logs,recovery,secret_sharing}';
