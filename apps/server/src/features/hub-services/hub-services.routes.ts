import { AUDIT_POLICY_DEFAULTS, auditPolicyEndpoint, type Endpoint, recoveryServiceUpdateEndpoint } from '@latchkey/contracts';
import { AppError, type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type Guard, requireCaller } from '../../http/guard.ts';
import { hubServicesRepository } from './hub-services.repository.ts';

export const HUB_SERVICES_ENDPOINTS: Endpoint[] = [auditPolicyEndpoint, recoveryServiceUpdateEndpoint];

/** The licence server's part of the audit and recovery services: the audit policy and the recovery switch. */
export function hubServicesRoutes(app: FastifyInstance, guard: Guard, db: Db) {
  // The thresholds the team's apps classify passwords by; no team has its own yet.
  registerEndpoint(app, auditPolicyEndpoint, guard, async () => ({ policy: { ...AUDIT_POLICY_DEFAULTS } }));

  registerEndpoint(app, recoveryServiceUpdateEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireCaller(ctx);
    const updated = await hubServicesRepository.setRecovery(db, caller.team.id, input.enable_recovery);
    if (!updated)
      throw new AppError('aux_server_not_connected', 'Connect a Hub before switching its services.', 400).shows(
        'errors.connect_hub_first',
      );
    return { code: 'recovery_service_updated' as const, enable_recovery: input.enable_recovery };
  });
}
