import { accessDenial, landingPath } from '@latchkey/contracts/client';
import { useMediaQuery } from '@mantine/hooks';
import { lazy, Suspense } from 'react';
import { Redirect } from 'wouter';
import { PageHeader } from '../../components/PageHeader.tsx';
import { NotBuiltYet, UnavailableOnMobile } from '../../components/StatusScreens.tsx';
import type { ConsoleRoute } from '../console-routes.ts';
import { useConsoleContext } from './console-context.ts';
import { wizardMustShow } from './nav.ts';

const AccountSecurity = lazy(async () => ({
  default: (await import('../../features/account/AccountSecurity.tsx')).AccountSecurity,
}));

const Dashboard = lazy(async () => ({ default: (await import('../../features/people/screens.ts')).Dashboard }));
const Members = lazy(async () => ({ default: (await import('../../features/people/screens.ts')).Members }));
const Profile = lazy(async () => ({ default: (await import('../../features/people/screens.ts')).Profile }));
const Administrators = lazy(async () => ({
  default: (await import('../../features/people/screens.ts')).Administrators,
}));

/** The screens built so far, by route path; the others say they are coming. */
function Screen({ path }: { path: string }) {
  if (path === 'dashboard')
    return (
      <Suspense fallback={null}>
        <Dashboard />
      </Suspense>
    );
  if (path === 'users')
    return (
      <Suspense fallback={null}>
        <Members />
      </Suspense>
    );
  if (path === 'settings/manage-administrators')
    return (
      <Suspense fallback={null}>
        <Administrators />
      </Suspense>
    );
  if (path === 'profile')
    return (
      <Suspense fallback={null}>
        <Profile />
      </Suspense>
    );
  if (path === 'settings/account-security')
    return (
      <Suspense fallback={null}>
        <AccountSecurity />
      </Suspense>
    );
  return <NotBuiltYet />;
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
