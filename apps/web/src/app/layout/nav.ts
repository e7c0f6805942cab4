import {
  type AccessContext,
  type AccessRule,
  type AuxService,
  accessDenial,
  FEATURE_VERSIONS,
  type Feature,
  hubTooOld,
  RULES,
  SERVICE_STATUS,
  type Team,
} from '@latchkey/contracts/client';
import type { IconName } from '../../components/Icon.tsx';

export interface NavItem {
  to: string;
  labelKey: string;
  icon: IconName;
  rule: AccessRule;
  /** Hidden for family teams even where the route itself would open (spec §2 Layout). */
  hiddenForFamily?: boolean;
  service?: AuxService;
  feature?: Feature;
  /** Other routes that belong to this item (a vault summary is part of the security audit). */
  alsoFor?: readonly string[];
}

/** Whether the item is the current one: its route, a route below it, or one it also stands for. */
export function isCurrent(item: NavItem, pathname: string): boolean {
  return [item.to, ...(item.alsoFor ?? [])].some((to) => pathname === to || pathname.startsWith(`${to}/`));
}

export const MAIN_NAV: readonly NavItem[] = [
  { to: '/dashboard', labelKey: 'nav.dashboard', icon: 'dashboard', rule: RULES.dashboard },
  { to: '/users', labelKey: 'nav.users', icon: 'users', rule: RULES.people },
  { to: '/groups', labelKey: 'nav.groups', icon: 'groups', rule: RULES.people },
  { to: '/policies', labelKey: 'nav.policy', icon: 'policy', rule: RULES.policies },
  { to: '/billing', labelKey: 'nav.billing', icon: 'billing', rule: RULES.billing, hiddenForFamily: true },
];

export const HUB_NAV: readonly NavItem[] = [
  { to: '/integration', labelKey: 'nav.integration', icon: 'integration', rule: RULES.integration },
  {
    to: '/audit',
    labelKey: 'nav.audit',
    icon: 'audit',
    rule: RULES.audit,
    service: 'audit',
    feature: 'audit',
    alsoFor: ['/vault'],
  },
  {
    to: '/sharing',
    labelKey: 'nav.sharing',
    icon: 'sharing',
    rule: RULES.sharing,
    service: 'secret_sharing',
    feature: 'sharing',
  },
  {
    to: '/eventlogs',
    labelKey: 'nav.eventlogs',
    icon: 'eventlogs',
    rule: RULES.eventLogs,
    service: 'audit_logs',
    feature: 'siem',
  },
  { to: '/recovery', labelKey: 'nav.recovery', icon: 'recovery', rule: RULES.recovery, service: 'recovery' },
];

export const SETTINGS_NAV: NavItem = {
  to: '/settings',
  labelKey: 'nav.settings',
  icon: 'settings',
  rule: RULES.anyAdmin,
  hiddenForFamily: true,
};

/** Shown when the role, team type and plan allow the screen; services only disable it. */
export function isVisible(item: NavItem, ctx: AccessContext): boolean {
  if (item.hiddenForFamily && ctx.teamType === 'family') return false;
  const { service: _service, serviceStatus: _status, ...withoutService } = item.rule;
  return accessDenial(withoutService, ctx) === null;
}

/** Why a visible item cannot be opened now, as an i18n key with its values, or null. */
export function disabledReason(
  item: NavItem,
  ctx: AccessContext,
  hubVersion: string | null,
): { key: string; values?: Record<string, string> } | null {
  if (!item.service) return null;
  const state = ctx.services[item.service];
  if (state?.status === SERVICE_STATUS.error) return { key: 'nav.disabled.service_error' };
  if (item.feature && hubTooOld(hubVersion, item.feature)) {
    return { key: 'nav.disabled.hub_too_old', values: { version: FEATURE_VERSIONS[item.feature] } };
  }
  if (item.rule.service && accessDenial(item.rule, ctx) !== null)
    return { key: ctx.hubEnabled ? 'nav.disabled.service_off' : 'nav.disabled.no_hub' };
  return null;
}

/** The green dot beside Integration: the first Hub runs at least one service right now (spec §2). */
export const hubHasServices = (ctx: AccessContext): boolean =>
  Object.entries(ctx.services).some(
    ([name, state]) => name !== 'integration' && state?.enabled && state.status === SERVICE_STATUS.active,
  );

/** The wizard takes over '/' (spec §4). */
export const wizardMustShow = (team: Team, restricted: boolean): boolean => {
  const w = team.onboarding_wizard;
  return w.show_wizard && !w.enable_console && !w.resume_notification && !restricted;
};

/** The 'resume onboarding' sidebar item: the admin set the wizard aside before finishing. */
export const canResumeOnboarding = (team: Team, restricted: boolean): boolean => {
  const w = team.onboarding_wizard;
  return w.show_wizard && !w.enable_console && w.resume_notification && !restricted;
};
