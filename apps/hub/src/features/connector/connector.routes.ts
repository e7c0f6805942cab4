import { hubConnectorEndpoint } from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import type { HubGuard } from '../../http/guard.ts';
import { registrationsRepository } from '../registrations/index.ts';
import { servicesFor } from './capabilities.ts';

/**
 * Unprotected: the console checks, before connecting, that this Hub answers and whether it
 * serves its team. Registering is the server's signed call (integration/register.ts), never this.
 */
export function connectorRoutes(router: Router, guard: HubGuard, db: Db, version: string) {
  const services = servicesFor(version);
  router.handle(hubConnectorEndpoint, guard, async ({ input }) => ({
    registered: await registrationsRepository.existsForTeam(db, input.team_slug),
    version,
    services,
  }));
}
