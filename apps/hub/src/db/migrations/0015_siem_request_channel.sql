-- Each SIEM destination's own request channel: a random GUID, as Splunk's HTTP Event Collector
-- documents the X-Splunk-Request-Channel value (required with indexer acknowledgement, and checked
-- to be a GUID whenever one is sent). Made with the destination, before its first test event.
alter table siem_destinations add column request_channel uuid not null default gen_random_uuid();
