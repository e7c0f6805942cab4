import { auditPolicyEndpoint, recoveryServiceUpdateEndpoint } from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/guard.ts';
import { createHubServicesService } from './hub-services.service.ts';

/** The licence server's part of the audit and recovery services: the audit policy and the recovery switch. */
export function hubServicesRoutes(router: Router, guard: Guard, db: Db) {
  const services = createHubServicesService(db);
  router.handle(auditPolicyEndpoint, guard, async ({ ctx }) => services.auditPolicy(requireCaller(ctx)));
  router.handle(recoveryServiceUpdateEndpoint, guard, async ({ input, ctx }) =>
    services.setRecovery(requireCaller(ctx), input.enable_recovery),
  );
}
