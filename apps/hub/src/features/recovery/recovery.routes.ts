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
import type { Db, Router } from '@latchkey/runtime';
import { type HubGuard, requireHubCaller } from '../../http/caller.ts';
import type { RoleCheck } from '../auth/index.ts';
import { type DeviceGuard, requireDevice } from '../devices/index.ts';
import { createRecoveryService } from './recovery.service.ts';
import type { RecoveryNotifier } from './recovery-notifier.ts';

/** Account recovery's calls: the members' apps (device credential) and the console (Hub token). */
export function recoveryRoutes(
  router: Router,
  guard: HubGuard,
  deviceGuard: DeviceGuard,
  db: Db,
  notifier: RecoveryNotifier,
  roleCheck: RoleCheck,
) {
  const recovery = createRecoveryService(db, notifier, roleCheck);
  const team = (ctx: Parameters<typeof requireHubCaller>[0]) => requireHubCaller(ctx).teamSlug;

  // ── the apps ──
  router.handle(recoveryRequestCreateEndpoint, deviceGuard, async ({ ctx }) => recovery.openRequest(requireDevice(ctx)));
  router.handle(recoveryRequestStatusEndpoint, deviceGuard, async ({ input, ctx }) =>
    recovery.requestStatus(requireDevice(ctx), input.request_id),
  );
  router.handle(recoveryAdminNominationsEndpoint, deviceGuard, async ({ ctx }) => recovery.nominations(requireDevice(ctx)));
  router.handle(recoveryAdminAcceptEndpoint, deviceGuard, async ({ input, ctx }) =>
    recovery.acceptAdmin(requireDevice(ctx), input.request_id),
  );

  // ── members' requests: super admin or recovery admin ──
  router.handle(recoveryRequestsEndpoint, guard, async ({ input, ctx }) => recovery.requestsPage(team(ctx), input));
  router.handle(recoveryApproveEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    return recovery.approve(caller.teamSlug, input.emails, caller.email);
  });
  router.handle(recoveryDeleteEndpoint, guard, async ({ input, ctx }) =>
    recovery.deleteRequest(team(ctx), input.id, input.force_delete),
  );

  // ── the recovery group: super admin ──
  router.handle(recoveryAdminsEndpoint, guard, async ({ input, ctx }) => recovery.adminsPage(team(ctx), input));
  router.handle(recoveryCreateAdminRequestEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    return recovery.addAdminRequest(caller, input);
  });
  router.handle(recoveryFetchAdminRequestsEndpoint, guard, async ({ ctx }) => recovery.pendingAdminRequests(team(ctx)));
  router.handle(recoveryRemoveAdminEndpoint, guard, async ({ input, ctx }) =>
    recovery.removeAdmin(team(ctx), input.uid, input.email),
  );
  router.handle(userKeyVerifyEndpoint, guard, async ({ input, ctx }) => recovery.verifyUserKeys(team(ctx), input.emails));
  router.handle(memberSecretVerifyEndpoint, guard, async ({ input, ctx }) =>
    recovery.verifyMemberSecret(team(ctx), input.uid, input.email),
  );

  // ── settings: super admin ──
  router.handle(recoverySettingsEndpoint, guard, async ({ ctx }) => recovery.settings(team(ctx)));
  router.handle(recoveryLinkExpirationEndpoint, guard, async ({ input, ctx }) =>
    recovery.setLinkExpiration(team(ctx), input.link_expiration_period),
  );
  router.handle(recoveryNotificationEndpoint, guard, async ({ input, ctx }) => recovery.setRecipients(team(ctx), input));
}
