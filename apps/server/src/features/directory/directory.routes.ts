import { hubDirectoryApplyEndpoint, hubDirectoryStateEndpoint } from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import type { Guard } from '../../http/caller.ts';
import type { MailOutbox } from '../../platform/mail.ts';
import { acceptHubCall, type IntegrationLookups } from '../integration/index.ts';
import { applyDirectoryBatch } from './directory-apply.ts';
import { directoryState } from './directory-state.ts';

/** The Hub's directory sync, in calls signed with the Hub's own key: what the team holds, and batches of changes. */
export function directoryRoutes(router: Router, guard: Guard, db: Db, mail: MailOutbox, lookups: IntegrationLookups) {
  router.handle(hubDirectoryStateEndpoint, guard, async ({ input, request }) => {
    const hub = await acceptHubCall(db, request, hubDirectoryStateEndpoint.path, input.team_slug, lookups);
    return directoryState(db, hub.team_id);
  });
  router.handle(hubDirectoryApplyEndpoint, guard, async ({ input, request }) => {
    const hub = await acceptHubCall(db, request, hubDirectoryApplyEndpoint.path, input.team_slug, lookups);
    return applyDirectoryBatch(db, mail, hub.team_id, input.run_id, input.changes);
  });
}
