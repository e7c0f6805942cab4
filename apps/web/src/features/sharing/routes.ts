import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

/** Secret sharing, a Hub service in the sidebar. */
export const sharingRoutes: readonly ConsoleRoute[] = [
  {
    path: 'sharing',
    titleKey: 'page.sharing',
    rule: RULES.sharing,
    screen: lazyScreen(() => import('./Sharing.tsx'), 'Sharing'),
    nav: {
      section: 'hub',
      position: 30,
      labelKey: 'nav.sharing',
      icon: 'sharing',
      service: 'secret_sharing',
      feature: 'sharing',
    },
  },
];
