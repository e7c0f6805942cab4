import {
  auditLogsSearchCreateEndpoint,
  auditLogsSearchDeleteEndpoint,
  auditLogsSearchesFetchEndpoint,
  auditLogsSearchUpdateEndpoint,
} from '@latchkey/contracts';
import type { Router } from '@latchkey/runtime';
import { type HubGuard, requireHubCaller } from '../../http/caller.ts';
import type { SavedSearches } from './saved-searches.service.ts';

/** The event log's saved searches: behind the log's own gate (its rule, and the team's service on). */
export function savedSearchesRoutes(router: Router, gated: HubGuard, searches: SavedSearches) {
  router.handle(auditLogsSearchesFetchEndpoint, gated, async ({ ctx }) => searches.list(requireHubCaller(ctx)));
  router.handle(auditLogsSearchCreateEndpoint, gated, async ({ input, ctx }) => searches.create(requireHubCaller(ctx), input));
  router.handle(auditLogsSearchUpdateEndpoint, gated, async ({ input, ctx }) => searches.update(requireHubCaller(ctx), input));
  router.handle(auditLogsSearchDeleteEndpoint, gated, async ({ input, ctx }) => searches.remove(requireHubCaller(ctx), input.id));
}
