import { hubRefreshEndpoint, hubTokenEndpoint, hubWhoAmIEndpoint } from '@latchkey/contracts';
import { type Db, forbidden, type Router, unauthorized } from '@latchkey/runtime';
import { type HubGuard, requireHubCaller } from '../../http/caller.ts';
import { verifyAuxGrant } from './aux-grant.ts';
import type { HubSessionsService } from './hub-sessions.service.ts';

export function authRoutes(router: Router, guard: HubGuard, db: Db, sessions: HubSessionsService) {
  router.handle(hubTokenEndpoint, guard, async ({ input, request }) => {
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) throw unauthorized('A sign-in grant is required.');
    const grant = await verifyAuxGrant(db, header.slice(7));
    // The console names the team it signed in to; the grant must be for that team.
    if (grant.team_slug !== input.team_slug) throw forbidden('The sign-in grant is for another team.');
    return sessions.start(grant, input.device);
  });
  router.handle(hubRefreshEndpoint, guard, ({ input }) => sessions.rotate(input.refresh));
  router.handle(hubWhoAmIEndpoint, guard, async ({ ctx }) => {
    const caller = requireHubCaller(ctx);
    return { email: caller.email, team_slug: caller.teamSlug, scopes: caller.scopes };
  });
}
