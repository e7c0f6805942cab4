import type { Db } from '@latchkey/runtime';
import type { FastifyBaseLogger } from 'fastify';
import type { HubClient } from './hub-client.ts';
import { integrationRepository as repo } from './integration.repository.ts';

/**
 * Console sessions that ended (sign-out, admin removal, scope change, auth reset, password
 * change, refresh-token reuse). Serialisable on purpose: it is the payload of the one job that
 * will carry it once the durable queue exists. `teamId` narrows to one team; without it the
 * teams are those of the sessions named, or of the user's sessions.
 */
export interface SessionsEnded {
  teamId?: string;
  sessionIds?: string[];
  /** Every Hub session of this admin (in the team, or in every team) ends. */
  userId?: string;
}

/**
 * Tells every set-up Hub of the teams concerned, in a signed call, so the Hub sessions these
 * console sessions opened end at once. Called after the change committed; a Hub that cannot be
 * told is logged, and its session still ends at its next refresh (the Hub re-checks with us).
 */
export function createHubSessionEnder(db: Db, client: HubClient, log: FastifyBaseLogger) {
  async function teamsOf(ended: SessionsEnded): Promise<string[]> {
    if (ended.teamId) return [ended.teamId];
    if (ended.sessionIds?.length) return repo.teamsOfSessions(db, ended.sessionIds);
    return ended.userId ? repo.teamsOfUser(db, ended.userId) : [];
  }

  return {
    async sessionsEnded(ended: SessionsEnded): Promise<void> {
      try {
        const hubs = await repo.setUpHubsOfTeams(db, await teamsOf(ended));
        await Promise.all(
          hubs.map(async (hub) => {
            try {
              await client.revokeSessions(hub, hub.team_slug, {
                ...(ended.sessionIds?.length ? { session_ids: ended.sessionIds } : {}),
                ...(ended.userId ? { user_id: ended.userId } : {}),
              });
            } catch (error) {
              log.warn(
                { err: error, hub: hub.server_url, team: hub.team_slug },
                'could not end Hub sessions; the Hub re-checks at refresh',
              );
            }
          }),
        );
      } catch (error) {
        log.warn({ err: error }, 'could not announce ended sessions to the Hubs');
      }
    },
  };
}
export type HubSessionEnder = ReturnType<typeof createHubSessionEnder>;
