import { type EndpointOutput, hubSessionCheckEndpoint, liveScopes } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';
import type { IntegrationLookups } from './integration-lookups.ts';
import { acceptHubCall } from './signed-hub-call.ts';

type Verdict = EndpointOutput<typeof hubSessionCheckEndpoint>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ended: Verdict = { live: false, scopes: [], absolute_expires_at: null };

/**
 * A Hub asking, in a call signed with its own key (the one it gave when the server registered
 * there), whether a console session of its team is still live and what the admin may do now: their
 * scopes, and the team's plan (a team that changes plan changes what its Hub sessions may reach).
 */
export async function checkConsoleSession(
  db: Db,
  request: FastifyRequest,
  input: { team_slug: string; sid: string; user_id: string },
  lookups: IntegrationLookups,
): Promise<Verdict> {
  const hub = await acceptHubCall(db, request, hubSessionCheckEndpoint.path, input.team_slug, lookups);

  if (!UUID.test(input.sid)) return ended;
  const session = await lookups.consoleSession(db, input.sid);
  if (
    !session ||
    session.team_id !== hub.team_id ||
    session.user_id !== input.user_id ||
    session.revoked_at ||
    session.absolute_expires_at.getTime() <= Date.now() ||
    !session.scopes?.length
  )
    return ended;
  return {
    live: true,
    scopes: liveScopes(session.scopes, session.scope_expiry, Date.now()),
    scope_expiry: session.scope_expiry,
    absolute_expires_at: session.absolute_expires_at.getTime(),
    team_type: hub.team_type,
    organization_type: hub.organization_type,
  };
}
