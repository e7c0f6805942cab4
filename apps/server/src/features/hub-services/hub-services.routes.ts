import { auditPolicyEndpoint, type Endpoint, recoveryServiceUpdateEndpoint } from '@latchkey/contracts';
import { type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type Guard, requireCaller } from '../../http/guard.ts';
import { createHubServicesService } from './hub-services.service.ts';

export const HUB_SERVICES_ENDPOINTS: Endpoint[] = [auditPolicyEndpoint, recoveryServiceUpdateEndpoint];

/** The licence server's part of the audit and recovery services: the audit policy and the recovery switch. */
export function hubServicesRoutes(app: FastifyInstance, guard: Guard, db: Db) {
  const services = createHubServicesService(db);
  registerEndpoint(app, auditPolicyEndpoint, guard, async ({ ctx }) => services.auditPolicy(requireCaller(ctx)));
  registerEndpoint(app, recoveryServiceUpdateEndpoint, guard, async ({ input, ctx }) =>
    services.setRecovery(requireCaller(ctx), input.enable_recovery),
  );
}
