import { type AccessContext, type AccessRule, accessDenial, RULES } from '@latchkey/contracts/client';

/** A screen inside the console layout: its path, its title, and who may open it (spec §2 Route table). */
export interface ConsoleRoute {
  path: string;
  /** i18n key of the page title; the description key is `${titleKey}.description`. */
  titleKey: string;
  rule: AccessRule;
  /** The screen does not work on small devices (spec §2). */
  desktopOnly?: boolean;
  /** Only while the onboarding wizard must show (spec §2: onboarding is allowed during onboarding). */
  duringOnboarding?: boolean;
  /** Where a refused admin goes instead of '/' (spec §2: family plan → /settings). */
  deniedTo?: string;
  /** The way back from a screen below another (every settings screen leads back to /settings). */
  backTo?: string;
  /** The screen draws its own header (the wizard). */
  ownHeader?: boolean;
}

export const CONSOLE_ROUTES: readonly ConsoleRoute[] = [
  { path: 'onboarding', titleKey: 'page.onboarding', rule: RULES.onboarding, duringOnboarding: true, ownHeader: true },
  { path: 'dashboard', titleKey: 'page.dashboard', rule: RULES.dashboard },
  { path: 'users', titleKey: 'page.users', rule: RULES.people },
  { path: 'users/:userData', titleKey: 'page.user_devices', rule: RULES.people },
  { path: 'groups', titleKey: 'page.groups', rule: RULES.people },
  { path: 'groups/:groupId', titleKey: 'page.group_users', rule: RULES.people },
  { path: 'groups/:groupId/:userData', titleKey: 'page.user_devices', rule: RULES.people },
  { path: 'profile', titleKey: 'page.profile', rule: RULES.anyAdmin },
  { path: 'billing', titleKey: 'page.billing', rule: RULES.billing },
  { path: 'settings', titleKey: 'page.settings', rule: RULES.anyAdmin },
  { path: 'settings/account-security', titleKey: 'page.account_security', rule: RULES.anyAdmin },
  { path: 'settings/manage-administrators', titleKey: 'page.manage_administrators', rule: RULES.superAdmin },
  { path: 'settings/organization-branding', titleKey: 'page.organization_branding', rule: RULES.superAdmin },
  { path: 'settings/sso-connector', titleKey: 'page.sso_connector', rule: RULES.superAdmin },
  { path: 'settings/scim-connectors', titleKey: 'page.scim_connectors', rule: RULES.scim },
  { path: 'settings/recovery', titleKey: 'page.recovery_settings', rule: RULES.settingsRecovery },
  { path: 'settings/eventlogs', titleKey: 'page.eventlogs_settings', rule: RULES.settingsEventLogs },
  { path: 'settings/family-plan', titleKey: 'page.family_plan', rule: RULES.familyPlan, deniedTo: '/settings' },
  { path: 'policies', titleKey: 'page.policies', rule: RULES.policies },
  { path: 'policies/history', titleKey: 'page.policy_history', rule: RULES.policyHistory },
  { path: 'policies/history/:historyId', titleKey: 'page.policy_change', rule: RULES.policyHistory },
  { path: 'integration', titleKey: 'page.integration', rule: RULES.integration },
  { path: 'audit', titleKey: 'page.audit', rule: RULES.audit },
  { path: 'vault/:summaryId', titleKey: 'page.vault_summary', rule: RULES.audit },
  { path: 'sharing', titleKey: 'page.sharing', rule: RULES.sharing },
  { path: 'eventlogs', titleKey: 'page.eventlogs', rule: RULES.eventLogs },
  { path: 'recovery', titleKey: 'page.recovery', rule: RULES.recovery },
  { path: 'recovery/admins', titleKey: 'page.recovery_admins', rule: RULES.recoveryAdmins },
];

/** The settings screens, in the order the settings index shows them. */
export const SETTINGS_ROUTES: readonly ConsoleRoute[] = CONSOLE_ROUTES.filter((r) => r.path.startsWith('settings/'));

/**
 * The route guard's decision (spec §2 Route guard): null when the screen opens, else where the
 * admin goes instead.
 */
export function guardRedirect(route: ConsoleRoute, ctx: AccessContext, wizardShows: boolean): string | null {
  if (accessDenial(route.rule, ctx) !== null) return route.deniedTo ?? '/';
  if (route.duringOnboarding && !wizardShows) return '/';
  return null;
}

/** Other spellings seen in the spec, kept working. */
export const ROUTE_ALIASES: Record<string, string> = {
  policy: '/policies',
  'policy/history': '/policies/history',
};
