import { type AccessContext, accessDenial, liveScopes } from '@latchkey/contracts';
import { AppError, forbidden, unauthorized } from '@latchkey/runtime';
import type { Caller, Guard, SessionContext } from './caller.ts';

/** What the guard looks up, handed in by app.ts: http/ knows no feature. */
interface GuardLookups {
  /** The session an access token names; throws when the token is invalid or expired. */
  verifyAccess(token: string): { sessionId: string };
  /** The session's live context: session, admin scopes, team and the first Hub's services. */
  sessionContext(sessionId: string): Promise<SessionContext | undefined>;
}

/**
 * Authenticates a `session` call with its bearer token and checks the endpoint's access rule
 * against the live session, team and services: the same rule the console's guard uses.
 */
export function createGuard(lookups: GuardLookups): Guard {
  return async (request, endpoint) => {
    if (endpoint.auth === 'public') return null;
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) throw unauthorized();
    const claims = lookups.verifyAccess(header.slice(7));
    const row = await lookups.sessionContext(claims.sessionId);
    if (!row || row.revoked_at || row.absolute_expires_at.getTime() <= Date.now()) {
      throw new AppError('token_expired', 'The session has ended. Sign in again.', 401);
    }
    const caller = callerOfContext(row);
    if (!caller) throw forbidden('You are no longer an administrator of this team.').shows('errors.no_longer_admin');
    const { access } = caller;
    if (endpoint.access) {
      const denial = accessDenial(endpoint.access, access);
      if (denial) throw forbidden(`Not allowed (${denial}).`).shows('errors.forbidden');
    }
    return caller;
  };
}

/**
 * The caller a live session stands for: its admin's scopes now, its team and its access context.
 * Undefined when the session has ended or its user is no longer an administrator. The guard uses
 * it, and so does a Hub's signed approval check (the console session a Hub session came from).
 */
export function callerOfContext(row: SessionContext): Caller | undefined {
  if (row.revoked_at || row.absolute_expires_at.getTime() <= Date.now()) return undefined;
  const scopes = liveScopes(row.scopes ?? [], row.scope_expiry, Date.now());
  if (scopes.length === 0) return undefined;
  const services = row.first_hub_services ?? {};
  const access: AccessContext = {
    scopes,
    teamType: row.team.team_type,
    organizationType: row.team.organization_type,
    cloud: row.team.business_cloud,
    hubEnabled: Boolean(services.integration?.enabled),
    services,
    grantSubscription: row.team.benefit_grant_subscription,
  };
  return { userId: row.user_id, email: row.email, sessionId: row.session_id, scopes, team: row.team, access };
}
