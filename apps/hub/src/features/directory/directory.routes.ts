import {
  directoryApplyEndpoint,
  directoryDeleteEndpoint,
  directoryPreviewEndpoint,
  directorySaveEndpoint,
  directorySettingsEndpoint,
  directorySyncNowEndpoint,
  directoryTestEndpoint,
} from '@latchkey/contracts';
import type { Router } from '@latchkey/runtime';
import { type HubGuard, requireHubCaller } from '../../http/caller.ts';
import type { DirectorySync } from './directory-sync.service.ts';

/** Settings → Directory sync: the connection, its test, previews, applies and on-demand syncs. */
export function directoryRoutes(router: Router, guard: HubGuard, sync: DirectorySync) {
  router.handle(directorySettingsEndpoint, guard, async ({ ctx }) => sync.settings(requireHubCaller(ctx).teamSlug));
  router.handle(directoryTestEndpoint, guard, async ({ ctx, input }) => sync.test(requireHubCaller(ctx).teamSlug, input));
  router.handle(directorySaveEndpoint, guard, async ({ ctx, input }) => {
    const caller = requireHubCaller(ctx);
    return sync.save(caller.teamSlug, caller.email, input);
  });
  router.handle(directoryDeleteEndpoint, guard, async ({ ctx }) => {
    const caller = requireHubCaller(ctx);
    return sync.remove(caller.teamSlug, caller.email);
  });
  router.handle(directoryPreviewEndpoint, guard, async ({ ctx }) => {
    const caller = requireHubCaller(ctx);
    return { run: await sync.preview(caller.teamSlug, caller.email) };
  });
  router.handle(directoryApplyEndpoint, guard, async ({ ctx, input }) => {
    const caller = requireHubCaller(ctx);
    return { run: await sync.apply(caller.teamSlug, caller.email, input.run_id) };
  });
  router.handle(directorySyncNowEndpoint, guard, async ({ ctx }) => {
    const caller = requireHubCaller(ctx);
    return { run: await sync.syncNow(caller.teamSlug, caller.email) };
  });
}
