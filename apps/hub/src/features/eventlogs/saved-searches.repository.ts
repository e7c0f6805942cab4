import type { Queryable } from '@latchkey/runtime';

export interface SavedSearchRow {
  id: string;
  team_slug: string;
  owner: string;
  name: string;
  shared: boolean;
  filters: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, team_slug, owner, name, shared, filters, created_at, updated_at';
/** What an admin sees of a team's saved searches: their own, and the shared ones. */
const VISIBLE = 'team_slug = $1 and (owner = $2 or shared)';

/** The only SQL on event_saved_searches. */
export const savedSearchesRepository = {
  async visible(q: Queryable, teamSlug: string, owner: string): Promise<SavedSearchRow[]> {
    return q.query<SavedSearchRow>(`select ${COLUMNS} from event_saved_searches where ${VISIBLE} order by lower(name), id`, [
      teamSlug,
      owner,
    ]);
  },

  /** One the admin sees, locked for a change in the caller's transaction; null when they do not see it. */
  async visibleForUpdate(q: Queryable, teamSlug: string, owner: string, id: string): Promise<SavedSearchRow | null> {
    const [row] = await q.query<SavedSearchRow>(
      `select ${COLUMNS} from event_saved_searches where ${VISIBLE} and id = $3 for update`,
      [teamSlug, owner, id],
    );
    return row ?? null;
  },

  /** Whether a search the admin sees already bears this name (case-insensitively), other than `exceptId`. */
  async nameTaken(q: Queryable, teamSlug: string, owner: string, name: string, exceptId: string | null): Promise<boolean> {
    const [row] = await q.query<{ n: number }>(
      `select count(*)::int as n from event_saved_searches
       where ${VISIBLE} and lower(name) = lower($3) and ($4::uuid is null or id <> $4::uuid)`,
      [teamSlug, owner, name, exceptId],
    );
    return (row?.n ?? 0) > 0;
  },

  /** How many the admin made, after waiting for any other save of theirs (the limit holds under concurrent saves). */
  async lockAndCountOwned(q: Queryable, teamSlug: string, owner: string): Promise<number> {
    await q.query('select pg_advisory_xact_lock(hashtext($1))', [`saved-searches:${teamSlug}:${owner}`]);
    const [row] = await q.query<{ n: number }>(
      'select count(*)::int as n from event_saved_searches where team_slug = $1 and owner = $2',
      [teamSlug, owner],
    );
    return row?.n ?? 0;
  },

  async insert(
    q: Queryable,
    s: { id: string; teamSlug: string; owner: string; name: string; shared: boolean; filters: unknown },
  ): Promise<SavedSearchRow> {
    const [row] = await q.query<SavedSearchRow>(
      `insert into event_saved_searches (id, team_slug, owner, name, shared, filters)
       values ($1, $2, $3, $4, $5, $6::jsonb) returning ${COLUMNS}`,
      [s.id, s.teamSlug, s.owner, s.name, s.shared, JSON.stringify(s.filters)],
    );
    if (!row) throw new Error('saved search not stored');
    return row;
  },

  async update(q: Queryable, id: string, s: { name: string; filters: unknown; shared: boolean }): Promise<SavedSearchRow> {
    const [row] = await q.query<SavedSearchRow>(
      `update event_saved_searches set name = $2, filters = $3::jsonb, shared = $4, updated_at = now() where id = $1 returning ${COLUMNS}`,
      [id, s.name, JSON.stringify(s.filters), s.shared],
    );
    if (!row) throw new Error('saved search not updated');
    return row;
  },

  async remove(q: Queryable, id: string): Promise<void> {
    await q.query('delete from event_saved_searches where id = $1', [id]);
  },
};
