import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

const screens = () => import('./screens.ts');

/** Account recovery: its settings screen, the requests (a Hub service in the sidebar) and the recovery admins. */
export const recoveryRoutes: readonly ConsoleRoute[] = [
  {
    path: 'settings/recovery',
    titleKey: 'page.recovery_settings',
    rule: RULES.settingsRecovery,
    screen: lazyScreen(screens, 'RecoverySettings'),
  },
  {
    path: 'recovery',
    titleKey: 'page.recovery',
    rule: RULES.recovery,
    screen: lazyScreen(screens, 'Recovery'),
    nav: { section: 'hub', position: 50, labelKey: 'nav.recovery', icon: 'recovery', service: 'recovery' },
  },
  {
    path: 'recovery/admins',
    titleKey: 'page.recovery_admins',
    rule: RULES.recoveryAdmins,
    screen: lazyScreen(screens, 'RecoveryAdmins'),
    backTo: { href: '/recovery', titleKey: 'page.recovery' },
  },
];
