-- SCIM: a member's userName as the identity provider sent it, apart from the e-mail address the
-- member is invited at. Entra ID sends the user principal name, which is not always an address, and
-- expects it back as sent. Null for members SCIM never named: their userName is their e-mail.
alter table members add column scim_user_name text;
-- userName is unique among current members, compared without case (RFC 7643: caseExact false,
-- uniqueness server); two identity-provider writes racing for one name: the second is refused.
create unique index members_scim_user_name_unique on members (team_id, lower(scim_user_name))
  where deboarded_at is null and scim_user_name is not null;
-- The lookup an identity provider sends before every write, `userName eq "…"`, over both kinds of member.
create index members_scim_user_name on members (team_id, lower(coalesce(scim_user_name, email))) where deboarded_at is null;

-- The status a member had when suspended (invited: never joined), so a restore returns them to it.
alter table members add column status_before_suspension text check (status_before_suspension in ('invited', 'active'));
