import {
  memberSecretVerifyEndpoint,
  recoveryAdminAcceptEndpoint,
  recoveryAdminNominationsEndpoint,
  recoveryAdminsEndpoint,
  recoveryApproveEndpoint,
  recoveryCreateAdminRequestEndpoint,
  recoveryDeleteEndpoint,
  recoveryFetchAdminRequestsEndpoint,
  recoveryLinkExpirationEndpoint,
  recoveryNotificationEndpoint,
  recoveryRemoveAdminEndpoint,
  recoveryRequestCreateEndpoint,
  recoveryRequestStatusEndpoint,
  recoveryRequestsEndpoint,
  recoverySettingsEndpoint,
  userKeyVerifyEndpoint,
} from '@latchkey/contracts';
import { type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type HubGuard, requireHubCaller } from '../../http/guard.ts';
import { type DeviceGuard, requireDevice } from '../devices/index.ts';
import { createRecoveryService } from './recovery.service.ts';
import type { RecoveryNotifier } from './recovery-notifier.ts';

/** Account recovery's calls: the members' apps (device credential) and the console (Hub token). */
export function recoveryRoutes(
  app: FastifyInstance,
  guard: HubGuard,
  deviceGuard: DeviceGuard,
  db: Db,
  notifier: RecoveryNotifier,
) {
  const recovery = createRecoveryService(db, notifier);
  const team = (ctx: Parameters<typeof requireHubCaller>[0]) => requireHubCaller(ctx).teamSlug;

  // ── the apps ──
  registerEndpoint(app, recoveryRequestCreateEndpoint, deviceGuard, async ({ ctx }) => recovery.openRequest(requireDevice(ctx)));
  registerEndpoint(app, recoveryRequestStatusEndpoint, deviceGuard, async ({ input, ctx }) =>
    recovery.requestStatus(requireDevice(ctx), input.request_id),
  );
  registerEndpoint(app, recoveryAdminNominationsEndpoint, deviceGuard, async ({ ctx }) =>
    recovery.nominations(requireDevice(ctx)),
  );
  registerEndpoint(app, recoveryAdminAcceptEndpoint, deviceGuard, async ({ input, ctx }) =>
    recovery.acceptAdmin(requireDevice(ctx), input.request_id),
  );

  // ── members' requests: super admin or recovery admin ──
  registerEndpoint(app, recoveryRequestsEndpoint, guard, async ({ input, ctx }) => recovery.requestsPage(team(ctx), input));
  registerEndpoint(app, recoveryApproveEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    return recovery.approve(caller.teamSlug, input.emails, caller.email);
  });
  registerEndpoint(app, recoveryDeleteEndpoint, guard, async ({ input, ctx }) =>
    recovery.deleteRequest(team(ctx), input.id, input.force_delete),
  );

  // ── the recovery group: super admin ──
  registerEndpoint(app, recoveryAdminsEndpoint, guard, async ({ input, ctx }) => recovery.adminsPage(team(ctx), input));
  registerEndpoint(app, recoveryCreateAdminRequestEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    return recovery.addAdminRequest(caller.teamSlug, caller.email, input);
  });
  registerEndpoint(app, recoveryFetchAdminRequestsEndpoint, guard, async ({ ctx }) => recovery.pendingAdminRequests(team(ctx)));
  registerEndpoint(app, recoveryRemoveAdminEndpoint, guard, async ({ input, ctx }) =>
    recovery.removeAdmin(team(ctx), input.uid, input.email),
  );
  registerEndpoint(app, userKeyVerifyEndpoint, guard, async ({ input, ctx }) => recovery.verifyUserKeys(team(ctx), input.emails));
  registerEndpoint(app, memberSecretVerifyEndpoint, guard, async ({ input, ctx }) =>
    recovery.verifyMemberSecret(team(ctx), input.uid, input.email),
  );

  // ── settings: super admin ──
  registerEndpoint(app, recoverySettingsEndpoint, guard, async ({ ctx }) => recovery.settings(team(ctx)));
  registerEndpoint(app, recoveryLinkExpirationEndpoint, guard, async ({ input, ctx }) =>
    recovery.setLinkExpiration(team(ctx), input.link_expiration_period),
  );
  registerEndpoint(app, recoveryNotificationEndpoint, guard, async ({ input, ctx }) => recovery.setRecipients(team(ctx), input));
}
