import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

/** The family plan settings; a refused admin goes back to the settings index. */
export const familyRoutes: readonly ConsoleRoute[] = [
  {
    path: 'settings/family-plan',
    titleKey: 'page.family_plan',
    rule: RULES.familyPlan,
    deniedTo: '/settings',
    screen: lazyScreen(() => import('./screens.ts'), 'FamilyPlan'),
  },
];
