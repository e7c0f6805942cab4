import { auditSummariesEndpoint, auditSummaryEndpoint, vaultSummaryIngestEndpoint } from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import { type HubGuard, requireHubCaller } from '../../http/caller.ts';
import { type DeviceGuard, requireDevice } from '../devices/index.ts';
import { createAuditService } from './audit.service.ts';

/** Security audit: the apps report vault health; the team's super admin reads it. */
export function auditRoutes(router: Router, guard: HubGuard, deviceGuard: DeviceGuard, db: Db) {
  const audit = createAuditService(db);
  router.handle(vaultSummaryIngestEndpoint, deviceGuard, async ({ input, ctx }) => {
    const device = requireDevice(ctx);
    return audit.ingest(device.teamSlug, device.email, input);
  });

  router.handle(auditSummariesEndpoint, guard, async ({ input, ctx }) => audit.page(requireHubCaller(ctx).teamSlug, input));

  router.handle(auditSummaryEndpoint, guard, async ({ input, ctx }) =>
    audit.detail(requireHubCaller(ctx).teamSlug, input.summary_id),
  );
}
