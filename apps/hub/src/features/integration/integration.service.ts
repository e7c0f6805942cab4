import { AUX_SERVICES, type AuxService, type Scope } from '@latchkey/contracts';
import { AppError, type Db } from '@latchkey/runtime';
import type { HubSessionsService } from '../auth/index.ts';
import { servicesFor } from '../connector/index.ts';
import { recoveryRepository } from '../recovery/index.ts';
import { type RegistrationRow, registrationsRepository as repo } from '../registrations/index.ts';

/** What the licence server's signed calls change once they are verified, and the console's delete-connector call. */
export function createIntegrationService(db: Db, version: string, sessions: HubSessionsService) {
  const offered = servicesFor(version);
  const state = async (teamSlug: string) => ({ version, offered, enabled: await repo.enabledForTeam(db, teamSlug) });

  return {
    state,

    /** The services the team switched on; this Hub refuses any its version does not run. */
    async setServices(registration: RegistrationRow, wanted: readonly AuxService[]) {
      const missing = wanted.filter((s) => !offered.includes(s));
      if (missing.length > 0) {
        throw new AppError('not_allowed', `This Hub (version ${version}) does not run: ${missing.join(', ')}.`).shows(
          'errors.hub_lacks_services',
          { version, missing: missing.join(', ') },
        );
      }
      await repo.setServices(
        db,
        registration.id,
        AUX_SERVICES.filter((s) => wanted.includes(s)),
      );
      return state(registration.team_slug);
    },

    async revokeSessions(
      teamSlug: string,
      match: {
        session_ids?: string[] | undefined;
        user_id?: string | undefined;
        admin?: { email: string; scopes: readonly Scope[] } | undefined;
      },
    ) {
      const revoked = await sessions.revokeFromServer(teamSlug, {
        sessionIds: match.session_ids ?? [],
        userId: match.user_id ?? null,
      });
      // The server is the source of roles: a scope it no longer grants (a just-in-time elevation
      // dropped or expired, a scope taken away) ends now in the admin's live sessions.
      if (match.admin) await sessions.narrowFromServer(teamSlug, match.admin.email, match.admin.scopes);
      // One recovery role: the server's recovery_agent scope. Without it, no place in the recovery group.
      if (match.admin && !match.admin.scopes.includes('recovery_agent')) {
        await recoveryRepository.removeAdminsByEmail(db, teamSlug, match.admin.email);
      }
      return { revoked };
    },

    /** Sessions cascade with the registration, the caller's own included. */
    async deleteConnector(teamSlug: string) {
      await repo.deleteForTeam(db, teamSlug);
      return { code: 'connector_deleted' as const };
    },

    /** The unprotected connector check: whether this Hub serves the team. */
    registered: (teamSlug: string) => repo.existsForTeam(db, teamSlug),
  };
}
