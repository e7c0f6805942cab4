import { accessDenial, landingPath } from '@latchkey/contracts/client';
import { Skeleton, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Suspense } from 'react';
import { Redirect } from 'wouter';
import { PageHeader } from '../../components/PageHeader.tsx';
import { NotBuiltYet, UnavailableOnMobile } from '../../components/StatusScreens.tsx';
import type { ConsoleRoute } from '../console-routes.ts';
import { useConsoleContext } from './console-context.ts';
import { wizardMustShow } from './nav.ts';
import { SCREENS } from './screens.ts';

/** The screen for a route, or "coming in a later release" when it is not built yet. */
function Screen({ path }: { path: string }) {
  const Built = SCREENS[path];
  if (!Built) return <NotBuiltYet />;
  return (
    // The screen's code may still be on its way: its place is held at once, never left blank.
    <Suspense fallback={<ScreenSkeleton />}>
      <Built />
    </Suspense>
  );
}

function ScreenSkeleton() {
  return (
    <Stack gap="sm" data-testid="screen-skeleton" aria-busy="true">
      <Skeleton h={36} w="40%" />
      <Skeleton h={180} />
      <Skeleton h={120} />
    </Stack>
  );
}

/**
 * The route guard (spec §2): role, cloud, team type, plan, service and service status must all
 * allow the screen, otherwise the admin goes to '/'.
 */
export function ConsolePage({ route }: { route: ConsoleRoute }) {
  const { ctx } = useConsoleContext();
  const small = useMediaQuery('(max-width: 47.99em)', false);
  if (accessDenial(route.rule, ctx) !== null) return <Redirect to="/" replace />;
  return (
    <div data-testid={`page-${route.path}`}>
      <PageHeader titleKey={route.titleKey} />
      {route.desktopOnly && small ? <UnavailableOnMobile /> : <Screen path={route.path} />}
    </div>
  );
}

/** '/': the wizard when it must show, else the landing page for the admin's scopes (spec §4). */
export function Landing() {
  const { ctx, team, restricted } = useConsoleContext();
  return <Redirect to={wizardMustShow(team, restricted) ? '/onboarding' : landingPath(ctx.scopes)} replace />;
}
