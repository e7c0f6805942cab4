import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

/** The settings index, the sidebar's last item; family teams do not see it there. */
export const settingsRoutes: readonly ConsoleRoute[] = [
  {
    path: 'settings',
    titleKey: 'page.settings',
    rule: RULES.anyAdmin,
    screen: lazyScreen(() => import('./screens.ts'), 'SettingsIndex'),
    nav: { section: 'settings', position: 10, labelKey: 'nav.settings', icon: 'settings', hiddenForFamily: true },
  },
];
