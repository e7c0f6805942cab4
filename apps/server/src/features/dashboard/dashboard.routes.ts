import {
  analyticsEventEndpoint,
  dashboardActivityEndpoint,
  dashboardProvisioningEndpoint,
  licenceSummaryEndpoint,
  notificationEndpoint,
} from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/caller.ts';
import { createDashboardService } from './dashboard.service.ts';

/** The dashboard's calls: the trial notice and the member and licence counts. */
export function dashboardRoutes(router: Router, guard: Guard, db: Db) {
  const dashboard = createDashboardService(db);
  router.handle(notificationEndpoint, guard, async ({ ctx }) => dashboard.notification(requireCaller(ctx)));
  router.handle(dashboardActivityEndpoint, guard, ({ ctx }) => dashboard.activity(requireCaller(ctx)));
  router.handle(dashboardProvisioningEndpoint, guard, ({ ctx }) => dashboard.provisioning(requireCaller(ctx)));
  router.handle(licenceSummaryEndpoint, guard, ({ ctx }) => dashboard.licenceSummary(requireCaller(ctx)));
}

/** The console's analytics call (registered after the team rename: the OpenAPI document lists calls in registration order). */
export function analyticsRoutes(router: Router, guard: Guard, db: Db) {
  const dashboard = createDashboardService(db);
  router.handle(analyticsEventEndpoint, guard, ({ ctx, input }) => dashboard.analytics(requireCaller(ctx), input));
}
