import { z } from 'zod';
import { RULES } from './access.ts';
import { defineEndpoint } from './endpoint.ts';
import { EventFilters } from './eventlogs.ts';
import { SAVED_SEARCH_NAME_MAX } from './eventlogs-constants.ts';

/**
 * Saved searches of the event log: a name for a set of filters, private to the admin who saved it
 * or shared with the team's admins who read the log. They follow the event log's rule (super admin;
 * enterprise, standard or starter; the SIEM service on); a private one is its author's alone, a
 * shared one any super admin of the team may rename, update or delete. Its author may share a private
 * one later, or make their shared one private again (no one else may take it from the team).
 */

const TeamSlug = z.string().min(1).max(100);
const SearchId = z.uuid();
const SearchName = z.string().trim().min(1).max(SAVED_SEARCH_NAME_MAX);

export const SavedSearch = z.object({
  id: z.string(),
  name: z.string(),
  /** Shared with the team's admins (otherwise only its author sees it). */
  shared: z.boolean(),
  filters: EventFilters,
  /** The admin who saved it (email). */
  owner: z.string(),
  /** Whether the caller may rename, update or delete it. */
  can_manage: z.boolean(),
  /** Whether the caller may switch it between private and shared (its author only). */
  can_change_sharing: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SavedSearch = z.infer<typeof SavedSearch>;

export const auditLogsSearchesFetchEndpoint = defineEndpoint({
  name: 'auditLogsSearchesFetch',
  program: 'hub',
  method: 'POST',
  path: '/audit/logs/searches/fetch/',
  auth: 'hubAuth',
  access: RULES.eventLogs,
  errors: ['service_disabled'],
  summary: "The event log's saved searches the caller sees: their own private ones and the team's shared ones, by name.",
  input: z.object({ team_slug: TeamSlug }),
  output: z.object({ searches: z.array(SavedSearch) }),
});

export const auditLogsSearchCreateEndpoint = defineEndpoint({
  name: 'auditLogsSearchCreate',
  program: 'hub',
  method: 'POST',
  path: '/audit/logs/searches/create/',
  auth: 'hubAuth',
  access: RULES.eventLogs,
  errors: ['service_disabled', 'conflict', 'saved_search_limit_exceeded'],
  summary:
    'Saves the filters of the event log under a name, private or shared with the team. A name the caller already sees is refused (conflict); an admin keeps at most SAVED_SEARCHES_PER_ADMIN. Saving a shared search is recorded in the event log.',
  input: z.object({ team_slug: TeamSlug, name: SearchName, shared: z.boolean().default(false), filters: EventFilters }),
  output: SavedSearch,
});

export const auditLogsSearchUpdateEndpoint = defineEndpoint({
  name: 'auditLogsSearchUpdate',
  program: 'hub',
  method: 'POST',
  path: '/audit/logs/searches/update/',
  auth: 'hubAuth',
  access: RULES.eventLogs,
  errors: ['service_disabled', 'not_found', 'conflict'],
  summary:
    'Renames a saved search, replaces its filters or switches it between private and shared: a private one by its author, a shared one by a super admin; only its author may share it or make it private again (forbidden otherwise). Another admin’s private search, or one of another team, is not found. Updating a shared search, and any change of sharing, is recorded in the event log.',
  input: z.object({
    team_slug: TeamSlug,
    id: SearchId,
    name: SearchName.optional(),
    filters: EventFilters.optional(),
    /** Shared with the team's admins, or private to its author. */
    shared: z.boolean().optional(),
  }),
  output: SavedSearch,
});

export const auditLogsSearchDeleteEndpoint = defineEndpoint({
  name: 'auditLogsSearchDelete',
  program: 'hub',
  method: 'POST',
  path: '/audit/logs/searches/delete/',
  auth: 'hubAuth',
  access: RULES.eventLogs,
  errors: ['service_disabled', 'not_found'],
  summary:
    'Deletes a saved search: a private one by its author, a shared one by a super admin. Deleting a shared search is recorded in the event log.',
  input: z.object({ team_slug: TeamSlug, id: SearchId }),
  output: z.object({ deleted: z.literal(true) }),
});
