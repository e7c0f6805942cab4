import {
  type AccessContext,
  type AccessRule,
  accessDenial,
  FEATURE_VERSIONS,
  hubTooOld,
  SERVICE_STATUS,
  type Team,
} from '@latchkey/contracts/client';
import type { NavEntry, NavSection } from '../../lib/console-route.ts';
import { CONSOLE_ROUTES } from '../routes.ts';

/** A sidebar item: its route's nav entry, where it leads, and the route's access rule. */
export interface NavItem extends Omit<NavEntry, 'section' | 'position'> {
  to: string;
  rule: AccessRule;
}

/** The items of one part of the sidebar, from the routes that have a nav entry there, by position. */
function section(name: NavSection): NavItem[] {
  return CONSOLE_ROUTES.flatMap((route) => (route.nav?.section === name ? [{ route, nav: route.nav }] : []))
    .sort((a, b) => a.nav.position - b.nav.position)
    .map(({ route, nav: { section: _section, position: _position, ...item } }) => ({
      ...item,
      to: `/${route.path}`,
      rule: route.rule,
    }));
}

/** Whether the item is the current one: its route, a route below it, or one it also stands for. */
export function isCurrent(item: NavItem, pathname: string): boolean {
  return [item.to, ...(item.alsoFor ?? [])].some((to) => pathname === to || pathname.startsWith(`${to}/`));
}

export const MAIN_NAV: readonly NavItem[] = section('main');
export const HUB_NAV: readonly NavItem[] = section('hub');
export const SETTINGS_NAV: NavItem = section('settings')[0] as NavItem;

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
