import { acceptSignedCall, bearerOf, type Db, JWS_TYP, jwsKid, publicKeyOf, unauthorized } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';
import { integrationRepository as repo, type SetUpHub } from './integration.repository.ts';

/**
 * Verifies a Hub→server call: signed with the key the team's set-up Hub gave when the server
 * registered there, for this path, this team and this exact body, and not seen before.
 * Returns that Hub's team and its plan; anything else is refused as unauthorized.
 */
export async function acceptHubCall(
  db: Db,
  request: FastifyRequest,
  path: string,
  teamSlug: string,
): Promise<Omit<SetUpHub, 'hub_key'>> {
  const token = bearerOf(request.headers.authorization);
  const kid = token ? jwsKid(token, JWS_TYP.call) : null;
  const hub = kid ? await repo.findSetUp(db, kid) : undefined;
  const key = publicKeyOf(hub?.hub_key);
  const invalid = () => unauthorized('The call is not signed by a Hub of this team.');
  if (!token || !hub || !key || hub.team_slug !== teamSlug) throw invalid();
  if (!(await acceptSignedCall(db, token, key, { path, teamSlug, body: request.body }))) throw invalid();
  return { team_id: hub.team_id, team_slug: hub.team_slug, team_type: hub.team_type, organization_type: hub.organization_type };
}
