import { accountRoutes } from '../features/account/routes.ts';
import { adminsRoutes } from '../features/admins/routes.ts';
import { approvalsRoutes } from '../features/approvals/routes.ts';
import { auditRoutes } from '../features/audit/routes.ts';
import { billingRoutes } from '../features/billing/routes.ts';
import { brandingRoutes } from '../features/branding/routes.ts';
import { dashboardRoutes } from '../features/dashboard/routes.ts';
import { directoryRoutes } from '../features/directory/routes.ts';
import { eventlogsRoutes } from '../features/eventlogs/routes.ts';
import { familyRoutes } from '../features/family/routes.ts';
import { groupsRoutes } from '../features/groups/routes.ts';
import { integrationRoutes } from '../features/integration/routes.ts';
import { membersRoutes } from '../features/members/routes.ts';
import { onboardingRoutes } from '../features/onboarding/routes.ts';
import { policiesRoutes } from '../features/policies/routes.ts';
import { recoveryRoutes } from '../features/recovery/routes.ts';
import { scimRoutes } from '../features/scim/routes.ts';
import { settingsRoutes } from '../features/settings/routes.ts';
import { sharingRoutes } from '../features/sharing/routes.ts';
import { ssoRoutes } from '../features/sso/routes.ts';
import { type ConsoleRoute, screenFrom } from '../lib/console-route.ts';
import { remembered } from '../lib/remembered.ts';

export type { ConsoleRoute } from '../lib/console-route.ts';
export { guardRedirect } from '../lib/console-route.ts';

/**
 * The usual landing screens' code, one chunk (landing-screens.ts, vite.config.ts), fetched with one
 * request and remembered once for all of them: after the frame has preloaded it, any of them
 * renders at once.
 */
const landingScreens = remembered(() => import('./landing-screens.ts'));

/** The routes with their screens taken from the landing chunk instead of their own modules. */
function inLandingChunk(routes: readonly ConsoleRoute[]): ConsoleRoute[] {
  return routes.map((route) =>
    route.screen
      ? {
          ...route,
          screen: screenFrom(landingScreens, route.screen.name as keyof typeof import('./landing-screens.ts') & string),
        }
      : route,
  );
}

/**
 * Every screen inside the console layout (spec §2 Route table), each feature's own routes.ts in
 * turn. The order is the settings index's order of the settings screens; the sidebar orders its
 * items by their own positions.
 */
export const CONSOLE_ROUTES: readonly ConsoleRoute[] = [
  ...onboardingRoutes,
  ...inLandingChunk(dashboardRoutes),
  ...inLandingChunk(membersRoutes),
  ...inLandingChunk(groupsRoutes),
  ...inLandingChunk(accountRoutes.filter((r) => r.path === 'profile')),
  ...accountRoutes.filter((r) => r.path !== 'profile'),
  ...billingRoutes,
  ...settingsRoutes,
  ...inLandingChunk(adminsRoutes),
  ...approvalsRoutes,
  ...inLandingChunk(brandingRoutes),
  ...ssoRoutes,
  ...scimRoutes,
  ...directoryRoutes,
  ...recoveryRoutes,
  ...eventlogsRoutes,
  ...familyRoutes,
  ...policiesRoutes,
  ...integrationRoutes,
  ...auditRoutes,
  ...sharingRoutes,
];

/** The settings screens, in the order the settings index shows them. */
export const SETTINGS_ROUTES: readonly ConsoleRoute[] = CONSOLE_ROUTES.filter((r) => r.path.startsWith('settings/'));

/**
 * Resolves once the landing screens' code is remembered, or has failed (the screen that needs it
 * then asks again and shows the failure). A cold load of one of them waits for it before its
 * first render (router.tsx), and the frame asks for it on any other page.
 */
export function preloadLandingScreens(): Promise<void> {
  return new Promise<void>((resolve) => {
    landingScreens().then(
      () => resolve(),
      () => resolve(),
    );
  });
}

/** Other spellings seen in the spec, kept working. */
export const ROUTE_ALIASES: Record<string, string> = {
  policy: '/policies',
  'policy/history': '/policies/history',
};
