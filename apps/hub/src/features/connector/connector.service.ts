import type { Db } from '@latchkey/runtime';
import { registrationsRepository } from '../registrations/index.ts';
import { servicesFor } from './capabilities.ts';

/** What this Hub tells anyone who asks before connecting: its version, what it runs, and whether it serves the team. */
export function createConnectorService(db: Db, version: string) {
  const services = servicesFor(version);
  return {
    status: async (teamSlug: string) => ({
      registered: await registrationsRepository.existsForTeam(db, teamSlug),
      version,
      services,
    }),
  };
}
