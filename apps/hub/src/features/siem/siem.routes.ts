import { siemToolsConfigureEndpoint, siemToolsEndpoint, siemToolUpdateEndpoint } from '@latchkey/contracts';
import type { Router } from '@latchkey/runtime';
import { type HubGuard, requireHubCaller } from '../../http/caller.ts';
import type { SiemService } from './siem.service.ts';

/** The team's SIEM destination: read it, set it up (a test event first), and act on it. Reachable while the event-logs service is off. */
export function siemRoutes(router: Router, guard: HubGuard, siem: SiemService) {
  router.handle(siemToolsEndpoint, guard, async ({ ctx }) => siem.tool(requireHubCaller(ctx).teamSlug));
  router.handle(siemToolsConfigureEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    return siem.configure(caller.teamSlug, caller.email, input);
  });
  router.handle(siemToolUpdateEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    return siem.update(caller.teamSlug, caller.email, input);
  });
}
