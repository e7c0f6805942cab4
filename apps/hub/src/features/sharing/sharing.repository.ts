import { SHARING_DEFAULTS, type SharingLimits } from '@latchkey/contracts';
import { containsPattern, type Queryable } from '@latchkey/runtime';

interface ShareRow {
  share_id: string;
  email: string;
  label: string;
  created_at: Date;
  expires_at: Date;
  view_limit: number;
  views: number;
}

/** A link that can still be opened: not revoked (what the list's index holds), not expired, views left. */
const UNREVOKED = 'revoked_at is null';
const LIVE = 'expires_at > now() and views < view_limit';
const ACTIVE = `${UNREVOKED} and ${LIVE}`;

export const sharingRepository = {
  async limits(q: Queryable, teamSlug: string): Promise<SharingLimits> {
    const [row] = await q.query<SharingLimits>('select max_expiry_hours, max_views from sharing_limits where team_slug = $1', [
      teamSlug,
    ]);
    return row ?? { ...SHARING_DEFAULTS };
  },

  async setLimits(q: Queryable, teamSlug: string, l: SharingLimits): Promise<void> {
    await q.query(
      `insert into sharing_limits (team_slug, max_expiry_hours, max_views) values ($1, $2, $3)
       on conflict (team_slug) do update set max_expiry_hours = excluded.max_expiry_hours,
         max_views = excluded.max_views, updated_at = now()`,
      [teamSlug, l.max_expiry_hours, l.max_views],
    );
  },

  async create(
    q: Queryable,
    s: { teamSlug: string; email: string; deviceId: string; label: string; hours: number; viewLimit: number },
  ): Promise<{ id: string; expires_at: Date }> {
    const [row] = await q.query<{ id: string; expires_at: Date }>(
      `insert into share_links (team_slug, email, device_id, label, expires_at, view_limit)
       values ($1, $2, $3, $4, now() + make_interval(hours => $5::int), $6) returning id, expires_at`,
      [s.teamSlug, s.email, s.deviceId, s.label, s.hours, s.viewLimit],
    );
    return row as { id: string; expires_at: Date };
  },

  /** Counts a view atomically: only an active link of the team gains one. */
  async view(q: Queryable, teamSlug: string, id: string): Promise<{ views: number; view_limit: number } | undefined> {
    const [row] = await q.query<{ views: number; view_limit: number }>(
      `update share_links set views = views + 1 where id = $1 and team_slug = $2 and ${ACTIVE}
       returning views, view_limit`,
      [id, teamSlug],
    );
    return row;
  },

  async activePage(q: Queryable, teamSlug: string, o: { search: string; limit: number; offset: number }) {
    const params = [teamSlug, o.search, containsPattern(o.search)];
    // Walk the team's unrevoked links in email order (index-only), then keep the active ones. The
    // `offset 0` keeps the planner from folding the time and view checks into the walk: it cannot
    // estimate them, and then sorts the whole team instead.
    const active = `(select id, expires_at, views, view_limit from share_links
       where team_slug = $1 and ${UNREVOKED} and ($2 = '' or email like $3)
       order by email, created_at desc, id offset 0) as walked
       where ${LIVE}`;
    const rows = await q.query<ShareRow>(
      `select id as share_id, email, label, created_at, expires_at, view_limit, views from share_links
       where id = any(array(select id from ${active} limit $4 offset $5))
       order by email, created_at desc, id`,
      [...params, o.limit, o.offset],
    );
    const [count] = await q.query<{ n: number }>(`select count(*)::int as n from ${active}`, params);
    return { rows, total: count?.n ?? 0 };
  },

  async revoke(q: Queryable, teamSlug: string, ids: string[], by: string): Promise<number> {
    const rows = await q.query(
      `update share_links set revoked_at = now(), revoked_by = $3
       where team_slug = $1 and id = any($2::uuid[]) and revoked_at is null returning id`,
      [teamSlug, ids, by],
    );
    return rows.length;
  },
};
