import type { AccessContext } from '@latchkey/contracts/client';
import { describe, expect, test } from 'vitest';
import { CONSOLE_ROUTES, type ConsoleRoute, guardRedirect, SETTINGS_ROUTES } from './routes.ts';

const route = (path: string) => CONSOLE_ROUTES.find((r) => r.path === path) as ConsoleRoute;
const ctx = (over: Partial<AccessContext> = {}): AccessContext => ({
  scopes: ['super_admin'],
  teamType: 'organization',
  organizationType: 'enterprise',
  cloud: 'none',
  hubEnabled: false,
  services: {},
  grantSubscription: true,
  ...over,
});

describe('route guard: onboarding and family plan (spec §2)', () => {
  test('/onboarding: the super admin, only while the wizard shows', () => {
    expect(guardRedirect(route('onboarding'), ctx(), true)).toBeNull();
    expect(guardRedirect(route('onboarding'), ctx(), false)).toBe('/');
    expect(guardRedirect(route('onboarding'), ctx({ scopes: ['admin'] }), true)).toBe('/');
    expect(guardRedirect(route('onboarding'), ctx({ teamType: 'family' }), true)).toBe('/');
  });

  test('/settings/family-plan: refused admins go to /settings, not /', () => {
    expect(guardRedirect(route('settings/family-plan'), ctx(), false)).toBeNull();
    expect(guardRedirect(route('settings/family-plan'), ctx({ scopes: ['admin'] }), false)).toBe('/settings');
    expect(guardRedirect(route('settings/family-plan'), ctx({ teamType: 'family' }), false)).toBe('/settings');
    // An organisation not entitled to grant the family plan (spec §3 Team.benefit.grant_subscription).
    expect(guardRedirect(route('settings/family-plan'), ctx({ grantSubscription: false }), false)).toBe('/settings');
    expect(guardRedirect(route('settings/family-plan'), ctx({ grantSubscription: undefined }), false)).toBe('/settings');
    // Other screens still send refused admins to '/'.
    expect(guardRedirect(route('settings/organization-branding'), ctx({ scopes: ['admin'] }), false)).toBe('/');
  });

  test('/settings/approvals: for whoever could ask or approve, on any team; not for other scopes', () => {
    expect(guardRedirect(route('settings/approvals'), ctx(), false)).toBeNull();
    expect(guardRedirect(route('settings/approvals'), ctx({ scopes: ['admin'] }), false)).toBeNull();
    expect(guardRedirect(route('settings/approvals'), ctx({ teamType: 'family' }), false)).toBeNull();
    expect(guardRedirect(route('settings/approvals'), ctx({ scopes: ['integrator'] }), false)).toBe('/');
    expect(guardRedirect(route('settings/approvals'), ctx({ scopes: ['recovery_agent'] }), false)).toBe('/');
  });

  test('the settings index lists every settings screen of the route table', () => {
    expect(SETTINGS_ROUTES.map((r) => r.path)).toEqual([
      'settings/account-security',
      'settings/manage-administrators',
      'settings/approvals',
      'settings/organization-branding',
      'settings/sso-connector',
      'settings/scim-connectors',
      'settings/directory-sync',
      'settings/recovery',
      'settings/eventlogs',
      'settings/family-plan',
    ]);
  });
});
