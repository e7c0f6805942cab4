import { landingPath } from '@latchkey/contracts/client';
import { Anchor, Group, Skeleton, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Suspense } from 'react';
import { Link, Redirect } from 'wouter';
import { Icon } from '../../components/Icon.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { NotBuiltYet, UnavailableOnMobile } from '../../components/StatusScreens.tsx';
import { ApprovalNotice } from '../../features/approvals/index.ts';
import { useConsoleContext } from '../../lib/console-context.ts';
import { type ConsoleRoute, guardRedirect, type LazyScreen } from '../../lib/console-route.ts';
import { useTranslation } from '../../lib/use-translation.ts';
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
  const { t } = useTranslation();
  const small = useMediaQuery('(max-width: 47.99em)', false);
  const redirect = guardRedirect(route, ctx, wizardMustShow(team, restricted));
  if (redirect) return <Redirect to={redirect} replace />;
  // Every settings screen leads back to the settings index.
  const backTo = route.backTo ?? (route.path.startsWith('settings/') ? '/settings' : undefined);
  return (
    <div data-testid={`page-${route.path}`}>
      {backTo && (
        <Anchor component={Link} href={backTo} size="sm" mb="xs" display="inline-flex" data-testid="page-back">
          <Group gap={4} component="span">
            <Icon name="back" size={14} />
            {t('page.back_to', { page: t('page.settings') })}
          </Group>
        </Anchor>
      )}
      {!route.ownHeader && <PageHeader titleKey={route.titleKey} />}
      {/* A change asked for on this screen that waits for another super admin: said here, not as done. */}
      <ApprovalNotice path={route.path} />
      {route.desktopOnly && small ? <UnavailableOnMobile /> : <Screen screen={route.screen} />}
    </div>
  );
}

/** '/': the wizard when it must show, else the landing page for the admin's scopes (spec §4). */
export function Landing() {
  const { ctx, team, restricted } = useConsoleContext();
  return <Redirect to={wizardMustShow(team, restricted) ? '/onboarding' : landingPath(ctx.scopes)} replace />;
}
