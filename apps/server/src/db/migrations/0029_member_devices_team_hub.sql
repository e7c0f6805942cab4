-- The members list's Hub filter asks the devices room for a team's Hub-authenticated members by
-- team, not through a join on each member: index that question.
create index member_devices_team_hub on member_devices (team_id, member_id) where hub_authenticated_at is not null;
