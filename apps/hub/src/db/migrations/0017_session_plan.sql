-- The team's plan as the licence server signed it into the grant (and re-states on every refresh),
-- so the Hub applies the access rules' team and organisation types, not only the role. Null on
-- sessions from before this column or from an older server: the plan-gated calls refuse them.
alter table hub_sessions add column team_type text;
alter table hub_sessions add column organization_type text;
