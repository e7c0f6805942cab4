-- A SIEM destination failing for a while says so once in the team's event log
-- (`siem.delivery_failing`, what the alert template watches): since when it fails, and whether that was said.
alter table siem_destinations add column failing_since timestamptz;
alter table siem_destinations add column failing_reported boolean not null default false;
