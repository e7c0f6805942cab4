-- The active share links of a 100,000-member team: pages in email order and their count read from
-- the index alone (what decides "active" travels with the key), and a search through trigrams.
create index share_links_active_by_email on share_links (team_slug, email, created_at desc, id)
  include (expires_at, views, view_limit) where revoked_at is null;
create index share_links_email_trgm on share_links using gin (email gin_trgm_ops) where revoked_at is null;
