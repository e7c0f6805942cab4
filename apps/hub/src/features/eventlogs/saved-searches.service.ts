import { randomUUID } from 'node:crypto';
import { type ActivityCode, type EventFilters, SAVED_SEARCHES_PER_ADMIN, type SavedSearch } from '@latchkey/contracts';
import { AppError, type Db, forbidden, type Queryable } from '@latchkey/runtime';
import type { HubCaller } from '../../http/caller.ts';
import { recordHubEvents } from './record-events.ts';
import { savedSearchesRepository as repo, type SavedSearchRow } from './saved-searches.repository.ts';

type Caller = Pick<HubCaller, 'teamSlug' | 'email' | 'scopes'>;

/** The owner key: an admin's email as the Hub session states it, case folded. */
const ownerOf = (caller: Caller) => caller.email.toLowerCase();

/** A private search is its author's alone; a shared one is every super admin's to manage. */
const mayManage = (row: SavedSearchRow, caller: Caller) =>
  row.shared ? caller.scopes.includes('super_admin') : row.owner === ownerOf(caller);

/** Only its author shares a search or takes it back from the team (a super admin, as the log's rule has it). */
const mayChangeSharing = (row: SavedSearchRow, caller: Caller) =>
  row.owner === ownerOf(caller) && caller.scopes.includes('super_admin');

const notFound = () => new AppError('not_found', 'No such saved search.').shows('errors.saved_search_not_found');
const nameTaken = () =>
  new AppError('conflict', 'A saved search of that name already exists.').shows('errors.saved_search_name_taken');

/**
 * A save that lost a race for its name to another at the same instant (the unique indexes on
 * shared names per team and private names per author): the same answer as a name seen taken.
 */
async function orNameTaken<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const { code, constraint } = error as { code?: unknown; constraint?: unknown };
    if (code === '23505' && (constraint === undefined || String(constraint).endsWith('_name'))) throw nameTaken();
    throw error;
  }
}

function toSavedSearch(row: SavedSearchRow, caller: Caller): SavedSearch {
  return {
    id: row.id,
    name: row.name,
    shared: row.shared,
    filters: row.filters as SavedSearch['filters'],
    owner: row.owner,
    can_manage: mayManage(row, caller),
    can_change_sharing: mayChangeSharing(row, caller),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/**
 * The event log's saved searches. A change to a shared one is an event in the log (in the same
 * transaction), since every admin of the team sees what it shows; a private one concerns its author only.
 */
export function createSavedSearches(db: Db, o: { onAppended?: (teamSlug: string) => void } = {}) {
  const record = async (tx: Queryable, caller: Caller, activity: ActivityCode, row: SavedSearchRow, detail = {}) => {
    await recordHubEvents(tx, caller.teamSlug, [
      {
        actor: caller.email,
        actor_type: 'admin',
        activity,
        component: 'event_logs',
        target: row.name,
        detail: { search_id: row.id, ...detail },
      },
    ]);
  };
  const recordShared = async (tx: Queryable, caller: Caller, activity: ActivityCode, row: SavedSearchRow) => {
    if (row.shared) await record(tx, caller, activity, row);
  };
  /** A search shared or taken back: the team's admins gained or lost it, so the log says so either way. */
  const recordSharing = (tx: Queryable, caller: Caller, row: SavedSearchRow) =>
    record(tx, caller, 'event_logs.search_sharing_changed', row, { shared: row.shared });
  const afterShared = (caller: Caller, row: SavedSearchRow) => {
    if (row.shared) o.onAppended?.(caller.teamSlug);
  };

  /** The search the caller may change, locked; not found when they do not see it, forbidden when they only see it. */
  async function manageable(tx: Queryable, caller: Caller, id: string): Promise<SavedSearchRow> {
    const row = await repo.visibleForUpdate(tx, caller.teamSlug, ownerOf(caller), id);
    if (!row) throw notFound();
    if (!mayManage(row, caller))
      throw forbidden('Only a super admin manages shared saved searches.').shows('errors.saved_search_shared_only_super_admin');
    return row;
  }

  return {
    async list(caller: Caller) {
      const rows = await repo.visible(db, caller.teamSlug, ownerOf(caller));
      return { searches: rows.map((r) => toSavedSearch(r, caller)) };
    },

    async create(caller: Caller, input: { name: string; shared: boolean; filters: EventFilters }) {
      if (input.shared && !caller.scopes.includes('super_admin'))
        throw forbidden('Only a super admin shares saved searches.').shows('errors.saved_search_shared_only_super_admin');
      const row = await orNameTaken(
        db.transaction(async (tx) => {
          const owned = await repo.lockAndCountOwned(tx, caller.teamSlug, ownerOf(caller));
          if (owned >= SAVED_SEARCHES_PER_ADMIN)
            throw new AppError(
              'saved_search_limit_exceeded',
              `An admin keeps at most ${SAVED_SEARCHES_PER_ADMIN} saved searches.`,
            ).shows('errors.saved_search_limit_exceeded', { max: SAVED_SEARCHES_PER_ADMIN });
          if (await repo.nameTaken(tx, caller.teamSlug, ownerOf(caller), input.name, null)) throw nameTaken();
          const saved = await repo.insert(tx, {
            id: randomUUID(),
            teamSlug: caller.teamSlug,
            owner: ownerOf(caller),
            name: input.name,
            shared: input.shared,
            filters: input.filters,
          });
          await recordShared(tx, caller, 'event_logs.search_saved', saved);
          return saved;
        }),
      );
      afterShared(caller, row);
      return toSavedSearch(row, caller);
    },

    async update(
      caller: Caller,
      input: { id: string; name?: string | undefined; filters?: EventFilters | undefined; shared?: boolean | undefined },
    ) {
      const { row, sharingChanged } = await orNameTaken(
        db.transaction(async (tx) => {
          const current = await manageable(tx, caller, input.id);
          const shared = input.shared ?? current.shared;
          const sharingChanged = shared !== current.shared;
          if (sharingChanged && !mayChangeSharing(current, caller))
            throw forbidden('Only the admin who saved a shared search may make it private.').shows(
              'errors.saved_search_unshare_owner_only',
            );
          const name = input.name ?? current.name;
          // A new name, or the same one where others see it (shared) or no longer do (private), must be free there.
          if (
            (sharingChanged || name.toLowerCase() !== current.name.toLowerCase()) &&
            (await repo.nameTaken(tx, caller.teamSlug, ownerOf(caller), name, current.id))
          )
            throw nameTaken();
          const saved = await repo.update(tx, current.id, { name, filters: input.filters ?? current.filters, shared });
          if (sharingChanged) await recordSharing(tx, caller, saved);
          else await recordShared(tx, caller, 'event_logs.search_updated', saved);
          return { row: saved, sharingChanged };
        }),
      );
      if (sharingChanged) o.onAppended?.(caller.teamSlug);
      else afterShared(caller, row);
      return toSavedSearch(row, caller);
    },

    async remove(caller: Caller, id: string) {
      const row = await db.transaction(async (tx) => {
        const current = await manageable(tx, caller, id);
        await repo.remove(tx, current.id);
        await recordShared(tx, caller, 'event_logs.search_deleted', current);
        return current;
      });
      afterShared(caller, row);
      return { deleted: true as const };
    },
  };
}
export type SavedSearches = ReturnType<typeof createSavedSearches>;
