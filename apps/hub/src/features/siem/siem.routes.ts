import { siemToolsConfigureEndpoint, siemToolsEndpoint, siemToolUpdateEndpoint } from '@latchkey/contracts';
import type { Router } from '@latchkey/runtime';
import { type HubGuard, requireHubCaller } from '../../http/caller.ts';
import type { HubApprovalGate } from '../../platform/approval-gate.ts';
import type { SiemService } from './siem.service.ts';

/** The team's SIEM destination: read it, set it up (a test event first), and act on it. Reachable while the event-logs service is off. */
export function siemRoutes(router: Router, guard: HubGuard, siem: SiemService, approvalGate: HubApprovalGate) {
  router.handle(siemToolsEndpoint, guard, async ({ ctx }) => siem.tool(requireHubCaller(ctx).teamSlug));
  router.handle(siemToolsConfigureEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    // Where the whole log goes: setting or changing it waits for approval when the policy says so.
    await approvalGate(caller, {
      action: 'siem.destination',
      call: 'siemToolsConfigure',
      input,
      summary: `Send the event log to ${input.siem_tool}${'url' in input && input.url ? ` at ${input.url}` : ''}`,
    });
    return siem.configure(caller.teamSlug, caller.email, input);
  });
  router.handle(siemToolUpdateEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    // Switching the export off, or removing the destination, blinds the team's SIEM.
    if (input.action === 'deactivate' || input.action === 'delete') {
      const off = input.action === 'deactivate';
      await approvalGate(caller, {
        action: off ? 'siem.off' : 'siem.destination',
        call: 'siemToolUpdate',
        input,
        summary: off ? 'Switch the SIEM export off' : 'Remove the SIEM destination',
      });
    }
    return siem.update(caller.teamSlug, caller.email, input);
  });
}
