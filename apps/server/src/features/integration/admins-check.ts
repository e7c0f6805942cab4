import { type EndpointOutput, hubAdminsCheckEndpoint } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';
import type { IntegrationLookups } from './integration-lookups.ts';
import { acceptHubCall } from './signed-hub-call.ts';

/**
 * A Hub asking, in a call signed with its own key, which of these addresses are its team's
 * administrators now: an alert rule's e-mail goes to administrators only, and the server keeps
 * that list. Only active administrators count (at least one standing scope). An invited person
 * who has not accepted is left out: they have not taken on the role, and may never do so, so the
 * team's security alerts (who signed in from where, what changed) do not go to them yet.
 */
export async function adminsAmong(
  db: Db,
  request: FastifyRequest,
  input: { team_slug: string; emails: string[] },
  lookups: IntegrationLookups,
): Promise<EndpointOutput<typeof hubAdminsCheckEndpoint>> {
  const hub = await acceptHubCall(db, request, hubAdminsCheckEndpoint.path, input.team_slug, lookups);
  const admins = new Set((await lookups.adminEmails(db, hub.team_id)).map((e) => e.toLowerCase()));
  const asked = [...new Set(input.emails.map((e) => e.toLowerCase()))];
  return { admins: asked.filter((e) => admins.has(e)) };
}
