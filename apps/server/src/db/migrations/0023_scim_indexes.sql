-- SCIM at 100,000 members and 5,000 groups (issue 14): the lookups an identity provider sends
-- before every write (group by displayName, any resource by externalId) answered from an index
-- instead of a scan of the team's groups or members.
create index groups_team_lower_name on groups (team_id, lower(name));
create index groups_scim_external_id on groups (team_id, scim_external_id) where scim_external_id is not null;
create index members_scim_external_id on members (team_id, scim_external_id)
  where deboarded_at is null and scim_external_id is not null;
