import type { OrganizationType, TeamType } from '@latchkey/contracts';
import { acceptSignedCall, bearerOf, type Db, JWS_TYP, jwsKid, publicKeyOf, unauthorized } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';
import { integrationRepository as repo } from './integration.repository.ts';
import type { IntegrationLookups } from './integration-lookups.ts';

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
  lookups: IntegrationLookups,
): Promise<{ team_id: string; team_slug: string; team_type: TeamType; organization_type: OrganizationType }> {
  const token = bearerOf(request.headers.authorization);
  const kid = token ? jwsKid(token, JWS_TYP.call) : null;
  const hub = kid ? await repo.findSetUp(db, kid) : undefined;
  const key = publicKeyOf(hub?.hub_key);
  const invalid = () => unauthorized('The call is not signed by a Hub of this team.');
  if (!token || !hub || !key) throw invalid();
  const team = await lookups.teamPlan(db, hub.team_id);
  if (!team || team.slug !== teamSlug) throw invalid();
  if (!(await acceptSignedCall(db, token, key, { path, teamSlug, body: request.body }))) throw invalid();
  return { team_id: hub.team_id, team_slug: teamSlug, team_type: team.team_type, organization_type: team.organization_type };
}
