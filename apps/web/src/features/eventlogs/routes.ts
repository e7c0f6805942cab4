import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

const screens = () => import('./screens.ts');

/** The event log (a Hub service in the sidebar) and its SIEM export settings. */
export const eventlogsRoutes: readonly ConsoleRoute[] = [
  {
    path: 'settings/eventlogs',
    titleKey: 'page.eventlogs_settings',
    rule: RULES.settingsEventLogs,
    screen: lazyScreen(screens, 'EventLogsSettings'),
  },
  {
    path: 'eventlogs',
    titleKey: 'page.eventlogs',
    rule: RULES.eventLogs,
    screen: lazyScreen(screens, 'EventLogs'),
    nav: {
      section: 'hub',
      position: 40,
      labelKey: 'nav.eventlogs',
      icon: 'eventlogs',
      service: 'audit_logs',
      feature: 'siem',
    },
  },
];
