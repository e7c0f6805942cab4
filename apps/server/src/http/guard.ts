import { type AccessContext, accessDenial, type Endpoint, type Scope } from '@latchkey/contracts';
import { AppError, type Db, forbidden, unauthorized } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';
import type { SessionsService } from '../features/auth/sessions.service.ts';
import type { TeamRow } from '../features/team/team.repository.ts';
import { sessionContexts } from './session-contexts.ts';

/** Who is calling, established before any handler runs. */
export interface Caller {
  userId: string;
  email: string;
  sessionId: string;
  scopes: Scope[];
  team: TeamRow;
  access: AccessContext;
}

export type Guard = (request: FastifyRequest, endpoint: Endpoint) => Promise<Caller | null>;

/**
 * Authenticates a `session` call with its bearer token and checks the endpoint's access rule
 * against the live session, team and services: the same rule the console's guard uses.
 */
export function createGuard(db: Db, sessions: SessionsService): Guard {
  const sessionContext = sessionContexts(db);
  return async (request, endpoint) => {
    if (endpoint.auth === 'public') return null;
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) throw unauthorized();
    const claims = sessions.verifyAccess(header.slice(7));
    const row = await sessionContext(claims.sessionId);
    if (!row || row.revoked_at || row.absolute_expires_at.getTime() <= Date.now()) {
      throw new AppError('token_expired', 'The session has ended. Sign in again.', 401);
    }
    const scopes = row.scopes ?? [];
    if (scopes.length === 0) throw forbidden('You are no longer an administrator of this team.').shows('errors.no_longer_admin');
    const services = row.first_hub_services ?? {};
    const access: AccessContext = {
      scopes,
      teamType: row.team.team_type,
      organizationType: row.team.organization_type,
      cloud: row.team.business_cloud,
      hubEnabled: Boolean(services.integration?.enabled),
      services,
    };
    if (endpoint.access) {
      const denial = accessDenial(endpoint.access, access);
      if (denial) throw forbidden(`Not allowed (${denial}).`).shows('errors.forbidden');
    }
    return { userId: row.user_id, email: row.email, sessionId: row.session_id, scopes, team: row.team, access };
  };
}

/** The caller of a `session` endpoint, which the guard has always established. */
export function requireCaller(caller: Caller | null): Caller {
  if (!caller) throw unauthorized();
  return caller;
}
