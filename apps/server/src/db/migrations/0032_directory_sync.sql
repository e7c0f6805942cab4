-- Directory sync: the Hub reads the team's LDAP or Active Directory and keeps members and groups in
-- step. A member has one source that may change them: the console, a SCIM connector or the directory.
alter table members add column source text not null default 'console' check (source in ('console', 'scim', 'directory'));
-- Members an identity provider created or named are its own.
update members set source = 'scim' where scim_external_id is not null or scim_user_name is not null;
-- The directory's stable id (objectGUID, entryUUID): a member is found by it across renames and moves.
alter table members add column directory_id text;
create unique index members_directory_id on members (team_id, directory_id) where deboarded_at is null and directory_id is not null;
alter table groups add column directory_id text;
create unique index groups_directory_id on groups (team_id, directory_id) where directory_id is not null;
