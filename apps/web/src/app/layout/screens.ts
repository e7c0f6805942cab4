import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

type Screen = LazyExoticComponent<ComponentType>;

/** One lazily loaded screen: `load` imports its module, `name` picks the component from it. */
function screen<M>(load: () => Promise<M>, name: keyof M): Screen {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const people = () => import('./people-screens.ts');

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
