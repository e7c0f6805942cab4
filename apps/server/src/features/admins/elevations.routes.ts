import {
  adminElevationDropEndpoint,
  adminElevationRequestEndpoint,
  adminElevationSettingsEndpoint,
  adminElevationsEndpoint,
  adminEligibilityEndpoint,
  ELEVATE_ACTION,
} from '@latchkey/contracts';
import { AppError, type Db, type Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/caller.ts';
import type { Approvals } from '../approvals/index.ts';
import { createElevationsService, type ElevationsDeps } from './elevations.service.ts';

/**
 * Just-in-time admin rights: any admin asks for a scope they are eligible for and drops it; the
 * super admin sets the team's setting and who is eligible. A request the policy does not let the
 * admin grant themselves goes through approvals (`admins.elevate`, always asked when it applies).
 */
export function elevationRoutes(router: Router, guard: Guard, db: Db, deps: ElevationsDeps & { approvals: Approvals }) {
  const elevations = createElevationsService(db, deps);
  const elevate = deps.approvals.approvable(adminElevationRequestEndpoint, ELEVATE_ACTION, {
    // Approved: granted from now, in the transaction that closes the request.
    run: (input, caller, tx) => createElevationsService(tx, deps).grant(caller, input),
    describe: async (input) => ({
      summary: `Elevation to ${input.scope} for ${input.minutes} minutes: ${input.reason}`,
      changes: [{ key: input.scope, kind: 'added', before: null, after: `${input.minutes} min` }],
    }),
  });
  // The eligibility call changes an admin's scopes: under the policy's admins.scopes class.
  const setEligibility = deps.approvals.approvable(adminEligibilityEndpoint, 'admins.scopes', {
    run: (input, caller, tx) =>
      createElevationsService(tx, deps).setEligibility(caller, input.email, input.scopes, input.eligible_scopes),
    describe: async (input) => ({
      summary: `${input.email}: standing ${input.scopes.join(', ')}; just in time ${input.eligible_scopes.join(', ') || 'none'}`,
    }),
  });

  router.handle(adminElevationsEndpoint, guard, ({ ctx }) => elevations.overview(requireCaller(ctx)));
  router.handle(adminElevationRequestEndpoint, guard, async ({ ctx, input }) => {
    const caller = requireCaller(ctx);
    const how = await elevations.prepare(caller, input);
    try {
      return await elevate(caller, input, { ask: how === 'self' ? 'never' : 'always' });
    } catch (error) {
      // The request waits for another super admin: the elevation is pending until it closes.
      if (error instanceof AppError && error.code === 'approval_required' && error.requestId)
        await elevations.pending(caller, input, error.requestId);
      throw error;
    }
  });
  router.handle(adminElevationDropEndpoint, guard, ({ ctx, input }) => elevations.drop(requireCaller(ctx), input.id));
  router.handle(adminElevationSettingsEndpoint, guard, ({ ctx, input }) =>
    elevations.setEnabled(requireCaller(ctx), input.enabled),
  );
  router.handle(adminEligibilityEndpoint, guard, ({ ctx, input }) => setEligibility(requireCaller(ctx), input));
  return elevations;
}
