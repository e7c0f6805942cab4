import { hubConnectorEndpoint } from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import type { HubGuard } from '../../http/caller.ts';
import { createConnectorService } from './connector.service.ts';

/**
 * Unprotected: the console checks, before connecting, that this Hub answers and whether it
 * serves its team. Registering is the server's signed call (integration/register.ts), never this.
 */
export function connectorRoutes(router: Router, guard: HubGuard, db: Db, version: string) {
  const connector = createConnectorService(db, version);
  router.handle(hubConnectorEndpoint, guard, async ({ input }) => connector.status(input.team_slug));
}
