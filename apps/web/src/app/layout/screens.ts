import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyFrom, remembered } from '../../lib/remembered.ts';

type Screen = LazyExoticComponent<ComponentType>;

const screen = lazyFrom;

const people = remembered(() => import('./people-screens.ts'));

/**
 * The usual landing screens' chunk (most other screens share code in it too): a cold load of one
 * of them waits for it before its first render (router.tsx), and the frame asks for it on any
 * other page. It resolves once the chunk is remembered, or has failed (the screen that needs it
 * then asks again and shows the failure).
 */
export function preloadPeopleScreens(): Promise<void> {
  return new Promise<void>((resolve) => {
    people().then(
      () => resolve(),
      () => resolve(),
    );
  });
}

/**
 * The screens built so far, by console route path (console-routes.ts); the others say they are
 * coming. Each feature adds its lines under its own heading, so parallel work merges cleanly.
 */
export const SCREENS: Record<string, Screen> = {
  // People (issue 4)
  dashboard: screen(people, 'Dashboard'),
  users: screen(people, 'Members'),
  profile: screen(people, 'Profile'),
  'settings/manage-administrators': screen(people, 'Administrators'),

  // Groups, branding, member devices (issue 4)
  groups: screen(people, 'Groups'),
  'groups/:groupId': screen(people, 'GroupMembers'),
  'groups/:groupId/:userData': screen(people, 'MemberDevices'),
  'users/:userData': screen(people, 'MemberDevices'),
  'settings/organization-branding': screen(people, 'Branding'),

  // Account security (issue 3)
  'settings/account-security': screen(() => import('../../features/account/AccountSecurity.tsx'), 'AccountSecurity'),

  // Policies (issue 5)
  policies: screen(() => import('../../features/policies/screens.ts'), 'Policies'),
  'policies/history': screen(() => import('../../features/policies/screens.ts'), 'PolicyHistory'),
  'policies/history/:historyId': screen(() => import('../../features/policies/screens.ts'), 'PolicyChange'),

  // Hub integration (issue 6)
  integration: screen(() => import('../../features/integration/Integration.tsx'), 'Integration'),

  // Security audit, sharing, recovery (issue 6)
  audit: screen(() => import('../../features/hub-services/screens.ts'), 'Audit'),
  'vault/:summaryId': screen(() => import('../../features/hub-services/screens.ts'), 'VaultSummary'),
  sharing: screen(() => import('../../features/hub-services/screens.ts'), 'Sharing'),
  recovery: screen(() => import('../../features/hub-services/screens.ts'), 'Recovery'),
  'recovery/admins': screen(() => import('../../features/hub-services/screens.ts'), 'RecoveryAdmins'),
  'settings/recovery': screen(() => import('../../features/hub-services/screens.ts'), 'RecoverySettings'),

  // SCIM provisioning (issue 14)
  'settings/scim-connectors': screen(() => import('../../features/scim/ScimConnectors.tsx'), 'ScimConnectors'),
  // Billing and licences (issue 15)
  billing: screen(() => import('../../features/billing/screens.ts'), 'Billing'),
  // Onboarding wizard, settings index, family plan (issue 16)
  onboarding: screen(() => import('../../features/onboarding/screens.ts'), 'Onboarding'),
  settings: screen(() => import('../../features/settings/screens.ts'), 'SettingsIndex'),
  'settings/family-plan': screen(() => import('../../features/family/screens.ts'), 'FamilyPlan'),
  // Event logs and SIEM export (issue 12)
  eventlogs: screen(() => import('../../features/eventlogs/screens.ts'), 'EventLogs'),
  'settings/eventlogs': screen(() => import('../../features/eventlogs/screens.ts'), 'EventLogsSettings'),
  // SAML single sign-on (issue 13)
  'settings/sso-connector': screen(() => import('../../features/sso/screens.ts'), 'SsoConnector'),
};
