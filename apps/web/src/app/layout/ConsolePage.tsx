import { landingPath } from '@latchkey/contracts/client';
import { Skeleton, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Suspense } from 'react';
import { Redirect, useParams } from 'wouter';
import { type BackLink, PageHeader } from '../../components/PageHeader.tsx';
import { NotBuiltYet, UnavailableOnMobile } from '../../components/StatusScreens.tsx';
import { ApprovalNotice } from '../../features/approvals/index.ts';
import { useConsoleContext } from '../../lib/console-context.ts';
import { type ConsoleRoute, guardRedirect, type LazyScreen } from '../../lib/console-route.ts';
import { wizardMustShow } from './sidebar-nav.ts';

/** The screen for a route, or "coming in a later release" when it is not built yet. */
function Screen({ screen }: { screen: LazyScreen | undefined }) {
  if (!screen) return <NotBuiltYet />;
  const Built = screen.Component;
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
  const { ctx, team, restricted } = useConsoleContext();
  const params = useParams<Record<string, string>>();
  const small = useMediaQuery('(max-width: 47.99em)', false);
  const redirect = guardRedirect(route, ctx, wizardMustShow(team, restricted));
  if (redirect) return <Redirect to={redirect} replace />;
  const screen = (
    <>
      {/* A change asked for on this screen that waits for another super admin: said here, not as done. */}
      <ApprovalNotice path={route.path} />
      {route.desktopOnly && small ? <UnavailableOnMobile /> : <Screen screen={route.screen} />}
    </>
  );
  return (
    <div data-testid={`page-${route.path}`}>
      {route.ownHeader ? (
        screen
      ) : (
        <PageHeader titleKey={route.titleKey} back={backLink(route, params)}>
          {screen}
        </PageHeader>
      )}
    </div>
  );
}

/** The parent screen's link, with this route's parameters in its path; every settings screen leads back to /settings. */
function backLink(route: ConsoleRoute, params: Record<string, string>): BackLink | undefined {
  const back =
    route.backTo ?? (route.path.startsWith('settings/') ? { href: '/settings', titleKey: 'page.settings' } : undefined);
  if (!back) return undefined;
  return { ...back, href: back.href.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? '')) };
}

/** '/': the wizard when it must show, else the landing page for the admin's scopes (spec §4). */
export function Landing() {
  const { ctx, team, restricted } = useConsoleContext();
  return <Redirect to={wizardMustShow(team, restricted) ? '/onboarding' : landingPath(ctx.scopes)} replace />;
}
