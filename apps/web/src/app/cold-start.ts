import {
  type AccessRule,
  type ApiMap,
  canAccess,
  DEFAULT_PAGE_SIZE,
  type EndpointInput,
  RULES,
} from '@latchkey/contracts/client';
import { accessContextOf } from '../lib/access-context.ts';
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
  /** The frame's calls, started at once. */
  calls: Prefetch[];
  /** The landing screen's calls, started once the frame's answers show its route guard lets the admin in. */
  landing: Landing | null;
}

interface Landing {
  /** The screen's route rule (features/dashboard/routes.ts, features/members/routes.ts). */
  rule: AccessRule;
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
const LANDING: Record<string, Landing> = {
  '/dashboard': {
    rule: RULES.dashboard,
    calls: [
      ['notification', {}],
      ['licenceSummary', {}],
      ['dashboardActivity', {}],
      ['dashboardProvisioning', {}],
      ['authType', {}],
    ],
  },
  // The first page, no filter (a filter in the hash's query changes the inputs).
  '/users': {
    rule: RULES.people,
    calls: [
      ['members', { after: null, page_size: DEFAULT_PAGE_SIZE }],
      ['membersCount', {}],
    ],
  },
};

/** The sign-in steps and the pages opened from an emailed link: none of them is the console. */
const OUTSIDE_CONSOLE = /^\/(login|reset-password|sso|family|admin-invitation|email-verification)(\/|\?|$)/;
const LANDING_SCREENS = /^\/(dashboard|users|groups|profile)?(\/|\?|$)/;

/** The plan for a hash path ('#/users' → '/users'), or null when the page is not the signed-in console. */
export function coldLoadPlan(hash: string, signedIn: boolean): ColdLoadPlan | null {
  const path = hash.replace(/^#/, '') || '/';
  if (!signedIn || OUTSIDE_CONSOLE.test(path)) return null;
  return { landingScreens: LANDING_SCREENS.test(path), calls: SETUP, landing: LANDING[path] ?? null };
}

/**
 * Starts the frame's code, the landing screen's code and the frame's calls, in parallel; the
 * screen's calls once the team, scopes and services say the route guard lets this admin in (a
 * bookmarked screen the role may not open asks the servers for nothing they would refuse).
 */
export function startColdLoad(hash: string): void {
  const plan = coldLoadPlan(hash, getSession() !== null);
  if (!plan) return;
  void import('./layout/Shell.tsx');
  if (plan.landingScreens) void import('./landing-screens.ts');
  for (const [name, input] of plan.calls) void prefetchCall(name, input as never);
  const landing = plan.landing;
  if (!landing) return;
  // A rule about a Hub service waits for the team's services too; the others go as soon as the
  // team and the scopes are known, before the screens' code arrives and keeps the browser busy.
  const services = landing.rule.service ? prefetchCall('auxServices', {}) : Promise.resolve({ servers: [] });
  void Promise.all([prefetchCall('teamInfo', {}), prefetchCall('adminScope', {}), services]).then(([team, scopes, known]) => {
    if (!team || !scopes || !known) return;
    if (!canAccess(landing.rule, accessContextOf(team, scopes.scope, known.servers))) return;
    for (const [name, input] of landing.calls) void prefetchCall(name, input as never);
  });
}
