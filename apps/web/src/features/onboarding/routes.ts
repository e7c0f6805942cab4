import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

/** The onboarding wizard: only while it must show; it draws its own header. */
export const onboardingRoutes: readonly ConsoleRoute[] = [
  {
    path: 'onboarding',
    titleKey: 'page.onboarding',
    rule: RULES.onboarding,
    duringOnboarding: true,
    ownHeader: true,
    screen: lazyScreen(() => import('./screens.ts'), 'Onboarding'),
  },
];
