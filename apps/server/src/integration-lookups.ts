// The integration room's lookups into the rooms that own teams, sessions and admins
// (features/integration/integration-lookups.ts): those rooms call integration, so the
// composition root joins them here instead of integration importing them.
import { adminsRepository, scopesHeld } from './features/admins/index.ts';
import { sessionsRepository } from './features/auth/sessions.repository.ts';
import type { IntegrationLookups } from './features/integration/index.ts';
import { teamRepository } from './features/team/index.ts';
import { usersRepository } from './features/users/index.ts';

export const integrationLookups: IntegrationLookups = {
  teamSlugs: (q, teamIds) => teamRepository.slugsOf(q, teamIds),
  teamIdBySlug: async (q, slug) => (await teamRepository.findBySlug(q, slug))?.id,
  teamPlan: (q, teamId) => teamRepository.findById(q, teamId),
  hosting: (q, teamId) => teamRepository.auxHosting(q, teamId),
  setHosting: (q, teamId, hosting) => teamRepository.setAuxHosting(q, teamId, hosting),
  teamsOfSessions: (q, sessionIds) => sessionsRepository.teamsOf(q, sessionIds),
  teamsOfUser: (q, userId) => sessionsRepository.teamsOfUser(q, userId),
  async consoleSession(q, sessionId) {
    const session = await sessionsRepository.find(q, sessionId);
    if (!session) return undefined;
    const standing = await adminsRepository.scopesOf(q, session.team_id, [session.user_id]);
    const held = standing ? await scopesHeld(q, session.team_id, session.user_id, standing) : null;
    return {
      user_id: session.user_id,
      team_id: session.team_id,
      revoked_at: session.revoked_at,
      absolute_expires_at: session.absolute_expires_at,
      scopes: held?.scopes ?? null,
      scope_expiry: held?.expiry ?? {},
    };
  },
  async adminScopes(q, teamId, email) {
    return (await adminsRepository.scopesOf(q, teamId, await usersRepository.idsByEmailAnyCase(q, email))) ?? [];
  },
  adminEmails: async (q, teamId) => (await adminsRepository.list(q, teamId)).map((a) => a.email),
};
