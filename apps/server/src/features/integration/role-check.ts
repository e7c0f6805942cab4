import { type EndpointOutput, hubAdminRoleEndpoint } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';
import type { IntegrationLookups } from './integration-lookups.ts';
import { acceptHubCall } from './signed-hub-call.ts';

/**
 * A Hub asking, in a call signed with its own key, which admin scopes an email holds in its team
 * now. The server is the source of truth for roles: the Hub nominates a recovery admin only if
 * the answer includes recovery_agent.
 */
export async function adminRole(
  db: Db,
  request: FastifyRequest,
  input: { team_slug: string; email: string },
  lookups: IntegrationLookups,
): Promise<EndpointOutput<typeof hubAdminRoleEndpoint>> {
  const hub = await acceptHubCall(db, request, hubAdminRoleEndpoint.path, input.team_slug, lookups);
  return { scopes: await lookups.adminScopes(db, hub.team_id, input.email) };
}
