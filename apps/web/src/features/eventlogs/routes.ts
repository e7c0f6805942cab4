import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

const screens = () => import('./screens.ts');

/** The event log (a Hub service in the sidebar) and its SIEM export settings, and its alert rules. */
export const eventlogsRoutes: readonly ConsoleRoute[] = [
  {
    path: 'settings/eventlogs',
    titleKey: 'page.eventlogs_settings',
    rule: RULES.settingsEventLogs,
    screen: lazyScreen(screens, 'EventLogsSettings'),
  },
  {
    path: 'eventlogs/alerts',
    titleKey: 'page.eventlogs_alerts',
    rule: RULES.eventLogs,
    // A chunk of its own: the event log's JS does not carry the alert screens.
    screen: lazyScreen(() => import('./alerts/AlertRules.tsx'), 'AlertRules'),
    backTo: { href: '/eventlogs', titleKey: 'page.eventlogs' },
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
      alsoFor: ['/eventlogs/alerts'],
    },
  },
];
