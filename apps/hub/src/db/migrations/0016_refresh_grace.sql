-- A rotation's answer, sealed under a key derived from the spent refresh token (never stored), so a
-- renewal that lost a race within the grace window gets the same successor. Kept on the session's
-- newest spent token only.
alter table hub_refresh_tokens add column successor text;
