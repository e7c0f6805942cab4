import type { Scope } from '@latchkey/contracts';
import { AppError, type Db, type Jobs } from '@latchkey/runtime';
import type { FastifyBaseLogger } from 'fastify';
import type { HubClient } from './hub-client.ts';
import { integrationRepository as repo } from './integration.repository.ts';
import type { IntegrationLookups } from './integration-lookups.ts';
import { setUpHubsOfTeams } from './team-hubs.ts';

/**
 * Console sessions that ended (sign-out, admin removal, scope change, auth reset, password
 * change, refresh-token reuse). `teamId` narrows to one team; without it the teams are those of
 * the sessions named, or of the user's sessions.
 */
interface SessionsEnded {
  teamId?: string;
  sessionIds?: string[];
  /** Every Hub session of this admin (in the team, or in every team) ends. */
  userId?: string;
  /** The admin's role changed: their email and scopes now (the Hub's recovery group follows `recovery_agent`). */
  admin?: AdminRole;
}

interface AdminRole {
  email: string;
  scopes: Scope[];
}

/** One Hub to tell: the payload of a durable job, so it is retried until that Hub acknowledges. */
interface HubRevocation {
  credentialId: string;
  teamSlug: string;
  sessionIds?: string[];
  userId?: string;
  admin?: AdminRole;
}

/**
 * Tells every set-up Hub of the teams concerned, in a signed call, so the Hub sessions these
 * console sessions opened end at once. Each Hub gets its own job on the queue, retried with backoff
 * until it answers (ending a session twice is harmless there); meanwhile the Hub's refresh re-check
 * ends the session at the next refresh anyway.
 */
export function createHubSessionEnder(
  db: Db,
  client: HubClient,
  jobs: Jobs,
  log: FastifyBaseLogger,
  lookups: IntegrationLookups,
) {
  const revocations = jobs.define<HubRevocation>(
    'hub-sessions-ended',
    async (r) => {
      const teamId = await lookups.teamIdBySlug(db, r.teamSlug);
      const hub = teamId ? await repo.setUpHub(db, r.credentialId, teamId) : undefined;
      // Deleted or set up again since: its sessions went with it.
      if (!hub) return;
      try {
        await client.revokeSessions(hub, r.teamSlug, {
          ...(r.sessionIds?.length ? { session_ids: r.sessionIds } : {}),
          ...(r.userId ? { user_id: r.userId } : {}),
          ...(r.admin ? { admin: r.admin } : {}),
        });
      } catch (error) {
        // A Hub that no longer knows this credential holds none of its sessions: retrying cannot help.
        if (error instanceof AppError && error.code === 'auth_not_set') {
          log.warn({ hub: hub.server_url, team: r.teamSlug }, 'Hub no longer knows the credential; nothing to end there');
          return;
        }
        throw error;
      }
    },
    { retryLimit: 12, retryDelaySeconds: 1, expireInSeconds: 30 },
  );

  async function teamsOf(ended: SessionsEnded): Promise<string[]> {
    if (ended.teamId) return [ended.teamId];
    if (ended.sessionIds?.length) return lookups.teamsOfSessions(db, ended.sessionIds);
    return ended.userId ? lookups.teamsOfUser(db, ended.userId) : [];
  }

  return {
    /** Called once the change committed: queues one revocation per Hub concerned. */
    async sessionsEnded(ended: SessionsEnded): Promise<void> {
      const hubs = await setUpHubsOfTeams(db, await teamsOf(ended), lookups);
      for (const hub of hubs) {
        await revocations.enqueue(db, {
          credentialId: hub.credential_id,
          teamSlug: hub.team_slug,
          ...(ended.sessionIds?.length ? { sessionIds: ended.sessionIds } : {}),
          ...(ended.userId ? { userId: ended.userId } : {}),
          ...(ended.admin ? { admin: ended.admin } : {}),
        });
      }
    },
  };
}
export type HubSessionEnder = ReturnType<typeof createHubSessionEnder>;
