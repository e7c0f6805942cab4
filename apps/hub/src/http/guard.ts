import { type AccessRule, DEFAULT_ROLES, DEFAULT_TEAM_TYPES, type Endpoint, liveScopes } from '@latchkey/contracts';
import { forbidden, unauthorized } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';
import type { AuthenticateSession, HubGuard, HubSessionFacts } from './caller.ts';

/**
 * Authenticates a `hubAuth` call with the Hub's own access token and binds it to the token's
 * team: every Hub call names its team, and a token serves only the team it was issued for.
 * The role and the plan parts of an access rule are checked here, from what the server signed
 * into the grant and re-states on every refresh; the team's services are the server's to know,
 * and it only grants aux codes to the team's administrators.
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
    // A time-bound scope falls away at its expiry, even under an access token minted before it.
    const scopes = liveScopes(session.scopes, session.scope_expiry, Date.now());
    if (endpoint.access) {
      const roles = endpoint.access.roles ?? DEFAULT_ROLES;
      if (!scopes.some((s) => roles.includes(s))) throw forbidden('Not allowed (role).').shows('errors.forbidden');
      if (!planAllows(endpoint.access, session)) throw forbidden('Not allowed on this plan.').shows('errors.forbidden');
    }
    return {
      sessionId: session.id,
      registrationId: session.registration_id,
      userId: session.user_id,
      email: session.email,
      teamSlug: session.team_slug,
      scopes,
      consoleSid: session.console_sid ?? null,
    };
  };
}

/** The rule's team and organisation types; a session whose plan the server never stated passes neither. */
function planAllows(rule: AccessRule, plan: Pick<HubSessionFacts, 'team_type' | 'organization_type'>): boolean {
  if (plan.team_type === null || !(rule.teamTypes ?? DEFAULT_TEAM_TYPES).includes(plan.team_type)) return false;
  if (!rule.organizationTypes) return true;
  return plan.organization_type !== null && rule.organizationTypes.includes(plan.organization_type);
}

/** The team a call names, read before validation; absent means the contract decides. */
function requestedTeam(request: FastifyRequest, endpoint: Endpoint): unknown {
  const source = endpoint.method === 'GET' ? request.query : request.body;
  return source && typeof source === 'object' ? (source as { team_slug?: unknown }).team_slug : undefined;
}
