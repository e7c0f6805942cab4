import { type AccessContext, SERVICE_STATUS, type Team } from '@latchkey/contracts/client';
import { describe, expect, it } from 'vitest';
import {
  canResumeOnboarding,
  disabledReason,
  HUB_NAV,
  hubHasServices,
  isCurrent,
  isVisible,
  MAIN_NAV,
  SETTINGS_NAV,
  wizardMustShow,
} from './sidebar-nav.ts';

const on = { enabled: true, status: SERVICE_STATUS.active };
const ctx = (over: Partial<AccessContext> = {}): AccessContext => ({
  scopes: ['super_admin'],
  teamType: 'organization',
  organizationType: 'enterprise',
  cloud: 'none',
  hubEnabled: true,
  services: { integration: on, audit: on, audit_logs: on, recovery: on, secret_sharing: on },
  ...over,
});
const visible = (c: AccessContext) => [...MAIN_NAV, ...HUB_NAV, SETTINGS_NAV].filter((i) => isVisible(i, c)).map((i) => i.to);
const item = (to: string) => [...MAIN_NAV, ...HUB_NAV].find((i) => i.to === to) ?? SETTINGS_NAV;

describe('sidebar visibility (spec §2 Layout)', () => {
  it('shows a super admin everything', () => {
    expect(visible(ctx())).toEqual([
      '/dashboard',
      '/users',
      '/groups',
      '/policies',
      '/billing',
      '/integration',
      '/audit',
      '/sharing',
      '/eventlogs',
      '/recovery',
      '/settings',
    ]);
  });

  it('hides users, groups, policy, billing and settings for a family team', () => {
    expect(visible(ctx({ teamType: 'family' }))).toEqual(['/dashboard', '/integration', '/audit', '/sharing', '/recovery']);
  });

  it('hides billing from restricted roles', () => {
    expect(visible(ctx({ scopes: ['admin'] }))).toEqual(['/dashboard', '/users', '/groups', '/policies', '/settings']);
  });

  it('gives an integrator integration only, and a recovery agent recovery', () => {
    expect(visible(ctx({ scopes: ['integrator'] }))).toEqual(['/integration', '/settings']);
    expect(visible(ctx({ scopes: ['recovery_agent'] }))).toEqual(['/recovery', '/settings']);
  });

  it('hides event logs on plans without them', () => {
    expect(visible(ctx({ organizationType: 'basic' }))).not.toContain('/eventlogs');
  });
});

describe('the current item', () => {
  const audit = item('/audit');
  it('is the route, a route below it, or one it stands for', () => {
    expect(['/audit', '/vault/42', '/auditx', '/users'].map((p) => isCurrent(audit, p))).toEqual([true, true, false, false]);
  });
});

describe('disabled hub links', () => {
  it('disables audit, sharing and recovery when their service reports an error', () => {
    const error = { enabled: true, status: SERVICE_STATUS.error };
    const c = ctx({ services: { integration: on, audit: error, secret_sharing: error, recovery: error } });
    for (const to of ['/audit', '/sharing', '/recovery'])
      expect(disabledReason(item(to), c, '2.2.0')?.key).toBe('nav.disabled.service_error');
  });

  it('names the hub version that unlocks a feature', () => {
    expect(disabledReason(item('/audit'), ctx(), '2.0.3')).toEqual({
      key: 'nav.disabled.hub_too_old',
      values: { version: '2.1' },
    });
    expect(disabledReason(item('/audit'), ctx(), '2.1.0')).toBeNull();
  });

  it('says when the service is off or no hub is connected', () => {
    expect(disabledReason(item('/sharing'), ctx({ services: { integration: on } }), '2.2.0')?.key).toBe(
      'nav.disabled.service_off',
    );
    expect(disabledReason(item('/sharing'), ctx({ hubEnabled: false, services: {} }), null)?.key).toBe('nav.disabled.no_hub');
  });

  it('never disables integration', () => {
    expect(disabledReason(item('/integration'), ctx({ hubEnabled: false, services: {} }), null)).toBeNull();
  });
});

describe('integration dot', () => {
  it('shows when the first hub runs a service beyond the connection itself', () => {
    expect(hubHasServices(ctx())).toBe(true);
    expect(hubHasServices(ctx({ services: { integration: on } }))).toBe(false);
    // A Hub that stopped answering runs nothing, whatever is switched on.
    const failing = { enabled: true, status: SERVICE_STATUS.error };
    expect(hubHasServices(ctx({ services: { integration: failing, audit: failing } }))).toBe(false);
  });
});

describe('onboarding wizard (spec §4)', () => {
  const team = (w: Partial<Team['onboarding_wizard']>): Team =>
    ({
      onboarding_wizard: {
        show_wizard: true,
        enable_console: false,
        resume_notification: false,
        state: { stage: 'welcome' },
        ...w,
      },
    }) as Team;

  it('takes over / only for an unrestricted admin with the console not yet enabled', () => {
    expect(wizardMustShow(team({}), false)).toBe(true);
    expect(wizardMustShow(team({}), true)).toBe(false);
    expect(wizardMustShow(team({ enable_console: true }), false)).toBe(false);
    expect(wizardMustShow(team({ resume_notification: true }), false)).toBe(false);
  });

  it('offers resume when the admin set it aside', () => {
    expect(canResumeOnboarding(team({ resume_notification: true }), false)).toBe(true);
    expect(canResumeOnboarding(team({ resume_notification: true, show_wizard: false }), false)).toBe(false);
  });
});
