import {
  directoryApplyEndpoint,
  directoryDeleteEndpoint,
  directoryPreviewEndpoint,
  directorySaveEndpoint,
  directorySettingsEndpoint,
  directorySyncNowEndpoint,
  directoryTestEndpoint,
  type HubApprovalCall,
} from '@latchkey/contracts';
import type { Router } from '@latchkey/runtime';
import { type HubCaller, type HubGuard, requireHubCaller } from '../../http/caller.ts';
import type { HubApprovalGate } from '../../platform/approval-gate.ts';
import type { DirectorySync } from './directory-sync.service.ts';

/** Settings → Directory sync: the connection, its test, previews, applies and on-demand syncs. */
export function directoryRoutes(router: Router, guard: HubGuard, sync: DirectorySync, approvalGate: HubApprovalGate) {
  // What changes who is a member: saving or forgetting the connection, applying a preview, syncing now.
  const gate = (caller: HubCaller, call: HubApprovalCall, input: Record<string, unknown>, summary: string) =>
    approvalGate(caller, { action: 'directory.settings', call, input, summary });
  router.handle(directorySettingsEndpoint, guard, async ({ ctx }) => sync.settings(requireHubCaller(ctx).teamSlug));
  router.handle(directoryTestEndpoint, guard, async ({ ctx, input }) => sync.test(requireHubCaller(ctx).teamSlug, input));
  router.handle(directorySaveEndpoint, guard, async ({ ctx, input }) => {
    const caller = requireHubCaller(ctx);
    await gate(caller, 'directorySave', input, `Save the directory connection to ${input.url}`);
    return sync.save(caller.teamSlug, caller.email, input);
  });
  router.handle(directoryDeleteEndpoint, guard, async ({ ctx, input }) => {
    const caller = requireHubCaller(ctx);
    await gate(caller, 'directoryDelete', input, 'Stop directory sync and forget its connection');
    return sync.remove(caller.teamSlug, caller.email);
  });
  router.handle(directoryPreviewEndpoint, guard, async ({ ctx }) => {
    const caller = requireHubCaller(ctx);
    return { run: await sync.preview(caller.teamSlug, caller.email) };
  });
  router.handle(directoryApplyEndpoint, guard, async ({ ctx, input }) => {
    const caller = requireHubCaller(ctx);
    await gate(caller, 'directoryApply', input, `Apply the directory sync preview ${input.run_id}`);
    return { run: await sync.apply(caller.teamSlug, caller.email, input.run_id) };
  });
  router.handle(directorySyncNowEndpoint, guard, async ({ ctx, input }) => {
    const caller = requireHubCaller(ctx);
    await gate(caller, 'directorySyncNow', input, 'Sync the directory now');
    return { run: await sync.syncNow(caller.teamSlug, caller.email) };
  });
}
