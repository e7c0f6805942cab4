import { DEFAULT_ROLES, type Endpoint } from '@latchkey/contracts';
import { forbidden, unauthorized } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';
import type { AuthenticateSession, HubGuard } from './caller.ts';

/**
 * Authenticates a `hubAuth` call with the Hub's own access token and binds it to the token's
 * team: every Hub call names its team, and a token serves only the team it was issued for.
 * Only the role part of an access rule can be checked here; the team's type and services are
 * the licence server's to know, and it only grants aux codes to the team's administrators.
 */
export function createHubGuard(authenticate: AuthenticateSession): HubGuard {
  return async (request, endpoint) => {
    if (endpoint.auth === 'public') return null;
    // Console sessions belong to the licence server; the Hub cannot check them.
    if (endpoint.auth !== 'hubAuth') throw unauthorized();
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) throw unauthorized();
    const session = await authenticate(header.slice(7));
    const slug = requestedTeam(request, endpoint);
    if (slug !== undefined && slug !== session.team_slug)
      throw forbidden('This Hub session is for another team.').shows('errors.hub_session_other_team');
    if (endpoint.access) {
      const roles = endpoint.access.roles ?? DEFAULT_ROLES;
      if (!session.scopes.some((s) => roles.includes(s))) throw forbidden('Not allowed (role).').shows('errors.forbidden');
    }
    return {
      sessionId: session.id,
      registrationId: session.registration_id,
      userId: session.user_id,
      email: session.email,
      teamSlug: session.team_slug,
      scopes: session.scopes,
    };
  };
}

/** The team a call names, read before validation; absent means the contract decides. */
function requestedTeam(request: FastifyRequest, endpoint: Endpoint): unknown {
  const source = endpoint.method === 'GET' ? request.query : request.body;
  return source && typeof source === 'object' ? (source as { team_slug?: unknown }).team_slug : undefined;
}
