import { type ApiMap, DEFAULT_PAGE_SIZE, type EndpointInput } from '@latchkey/contracts/client';
import { prefetchCall } from '../lib/api.ts';
import { getSession } from '../lib/session.ts';

/**
 * A cold load of a signed-in page: what to start at boot, all at once, instead of one
 * step after another (frame code → setup calls → screen code → data calls).
 */
type Prefetch = { [K in keyof ApiMap]: [K, EndpointInput<ApiMap[K]>] }[keyof ApiMap];

interface ColdLoadPlan {
  /** The landing screens' chunk (dashboard, users, groups, profile; landing-screens.ts). */
  landingScreens: boolean;
  calls: Prefetch[];
}

/** What the frame asks for on every signed-in page (features/team/api.ts, the top bar's logo). */
const SETUP: Prefetch[] = [
  ['teamInfo', {}],
  ['adminScope', {}],
  ['adminInfo', {}],
  ['allTeams', {}],
  ['auxServices', {}],
  ['branding', {}],
];

/** What a landing screen asks for first, with the same inputs (features/dashboard/api.ts, features/members/api.ts). */
const LANDING: Record<string, Prefetch[]> = {
  '/dashboard': [
    ['notification', {}],
    ['licenceSummary', {}],
    ['dashboardActivity', {}],
    ['dashboardProvisioning', {}],
    ['authType', {}],
  ],
  // The first page, no filter (a filter in the hash's query changes the inputs).
  '/users': [
    ['members', { after: null, page_size: DEFAULT_PAGE_SIZE }],
    ['membersCount', {}],
  ],
};

/** The sign-in steps and the pages opened from an emailed link: none of them is the console. */
const OUTSIDE_CONSOLE = /^\/(login|reset-password|sso|family|admin-invitation|email-verification)(\/|\?|$)/;
const LANDING_SCREENS = /^\/(dashboard|users|groups|profile)?(\/|\?|$)/;

/** The plan for a hash path ('#/users' → '/users'), or null when the page is not the signed-in console. */
export function coldLoadPlan(hash: string, signedIn: boolean): ColdLoadPlan | null {
  const path = hash.replace(/^#/, '') || '/';
  if (!signedIn || OUTSIDE_CONSOLE.test(path)) return null;
  return { landingScreens: LANDING_SCREENS.test(path), calls: [...SETUP, ...(LANDING[path] ?? [])] };
}

/** Starts the frame's code, the landing screen's code and their first calls, in parallel. */
export function startColdLoad(hash: string): void {
  const plan = coldLoadPlan(hash, getSession() !== null);
  if (!plan) return;
  void import('./layout/Shell.tsx');
  if (plan.landingScreens) void import('./landing-screens.ts');
  for (const [name, input] of plan.calls) prefetchCall(name, input as never);
}
