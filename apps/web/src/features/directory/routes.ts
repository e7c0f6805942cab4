import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

/** Directory sync, a settings screen: the Hub reads the team's LDAP or Active Directory. */
export const directoryRoutes: readonly ConsoleRoute[] = [
  {
    path: 'settings/directory-sync',
    titleKey: 'page.directory_sync',
    rule: RULES.scim,
    screen: lazyScreen(() => import('./DirectorySync.tsx'), 'DirectorySync'),
  },
];
