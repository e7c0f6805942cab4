import { DEFAULT_PAGE_SIZE, RULES } from '@latchkey/contracts/client';
import { describe, expect, it } from 'vitest';
import { coldLoadPlan } from './cold-start.ts';

const names = (hash: string) => {
  const plan = coldLoadPlan(hash, true);
  return plan && [...plan.calls, ...(plan.landing?.calls ?? [])].map(([name]) => name);
};

describe('cold load of a signed-in page', () => {
  it('starts nothing when signed out or outside the console', () => {
    expect(coldLoadPlan('#/dashboard', false)).toBeNull();
    for (const hash of [
      '#/login',
      '#/login/verify-otp',
      '#/reset-password?password_request=x',
      '#/sso?sso_status=1',
      '#/family/t',
      '#/admin-invitation/t',
      '#/email-verification/t',
    ]) {
      expect(coldLoadPlan(hash, true)).toBeNull();
    }
  });

  it('starts the frame calls on every console page, the landing calls on the dashboard and the users list', () => {
    const setup = ['teamInfo', 'adminScope', 'adminInfo', 'allTeams', 'auxServices', 'branding'];
    expect(names('#/policies')).toEqual(setup);
    expect(names('')).toEqual(setup);
    expect(names('#/dashboard')).toEqual([
      ...setup,
      'notification',
      'licenceSummary',
      'dashboardActivity',
      'dashboardProvisioning',
      'authType',
    ]);
    expect(coldLoadPlan('#/users', true)?.landing?.calls).toEqual([
      ['members', { after: null, page_size: DEFAULT_PAGE_SIZE }],
      ['membersCount', {}],
    ]);
    // A filter in the hash's query changes the list's inputs: only the frame's calls start.
    expect(names('#/users?app_usage=active')).toEqual(setup);
  });

  it("holds the landing screen's calls to its route's rule (started only once the guard would let the admin in)", () => {
    expect(coldLoadPlan('#/dashboard', true)?.landing?.rule).toBe(RULES.dashboard);
    expect(coldLoadPlan('#/users', true)?.landing?.rule).toBe(RULES.people);
    expect(coldLoadPlan('#/policies', true)?.landing).toBeNull();
  });

  it("loads the landing screens' code ahead for the screens in it", () => {
    for (const hash of ['', '#/', '#/dashboard', '#/users', '#/users/a%40b.example', '#/groups/7', '#/profile']) {
      expect(coldLoadPlan(hash, true)?.landingScreens).toBe(true);
    }
    for (const hash of ['#/policies', '#/settings/recovery', '#/audit'])
      expect(coldLoadPlan(hash, true)?.landingScreens).toBe(false);
  });
});
