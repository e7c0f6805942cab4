import '@mantine/notifications/styles.css';
import './Shell.css';
import { isRestricted, QUERY_CACHE_LIFETIME_MS, TOAST_MS } from '@latchkey/contracts/client';
import { AppShell, Burger, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider, useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Redirect, Router, useLocation, useSearch } from 'wouter';
import { Footer } from '../../components/Footer.tsx';
import { Logo } from '../../components/Logo.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { ElevationControl } from '../../features/admins/index.ts';
import { ApprovalsBadge } from '../../features/approvals/index.ts';
import { TeamLogo } from '../../features/branding/TeamLogo.tsx';
import { useHubReachability } from '../../features/integration/use-hub-reachability.ts';
import {
  useAccessContext,
  useAdminInfoQuery,
  useAllTeamsQuery,
  useAuxServicesQuery,
  useTeamInfoQuery,
} from '../../features/team/index.ts';
import { scheduleRefresh } from '../../lib/auth.ts';
import { ConsoleContextProvider } from '../../lib/console-context.ts';
import { onSessionEnd, rememberPath, useSession } from '../../lib/session.ts';
import { preloadLandingScreens, SETTINGS_ROUTES } from '../routes.ts';
import { BillingBadge } from './BillingBadge.tsx';
import { ConsoleRoutes } from './ConsoleRoutes.tsx';
import { useGuardedHashLocation } from './guarded-location.ts';
import { ProfileMenu } from './ProfileMenu.tsx';
import { Sidebar } from './Sidebar.tsx';
import { UnsavedChangesDialog } from './UnsavedChangesDialog.tsx';

export { preloadLandingScreens };

const WIDE = '(min-width: 62em)';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { gcTime: QUERY_CACHE_LIFETIME_MS, retry: 1, refetchOnWindowFocus: false, staleTime: 15_000 },
  },
});
// One admin's answers are never shown to the next one signing in in this tab.
onSessionEnd(() => queryClient.clear());

/** The signed-in frame: top bar, sidebar, content, footer (spec §2 Layout, UI.md Frame). */
export function Shell() {
  const session = useSession();
  const [path] = useLocation();
  const search = useSearch();
  if (!session) {
    rememberPath(search ? `${path}?${search}` : path);
    return <Redirect to="/login" replace />;
  }
  return (
    <QueryClientProvider client={queryClient}>
      {/* Inside the console, links and redirects ask about unsaved changes first. */}
      <Router hook={useGuardedHashLocation}>
        <SignedInShell />
      </Router>
    </QueryClientProvider>
  );
}

function SignedInShell() {
  const wide = useMediaQuery(WIDE, true);
  const [mobileOpen, mobile] = useDisclosure(false);
  const [desktopOpen, desktop] = useDisclosure(true);
  const { ctx, isError, refetch } = useAccessContext();
  const team = useTeamInfoQuery();
  const admin = useAdminInfoQuery();
  const teams = useAllTeamsQuery();
  const servers = useAuxServicesQuery();
  const hubVersion = servers.data?.[0]?.hub_version ?? null;
  const [pathname] = useLocation();
  const ready = ctx !== null && team.data !== undefined;
  const settled = useSettled(ready);

  useEffect(scheduleRefresh, []);
  useEffect(() => void preloadLandingScreens(), []);
  const signingOut = useHubReachability(ctx, servers.data?.[0]);
  // Below 992 px the sidebar is a drawer that closes itself on navigation (spec §2).
  // biome-ignore lint/correctness/useExhaustiveDependencies: close on every path change
  useEffect(() => mobile.close(), [pathname]);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'md', collapsed: { mobile: !mobileOpen, desktop: !desktopOpen } }}
      padding={{ base: 'md', md: 'xl' }}
    >
      {/* Toasts appear below the top bar, never over the profile menu's avatar. */}
      <Notifications position="top-right" autoClose={TOAST_MS} />
      <UnsavedChangesDialog />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Burger
              opened={wide ? desktopOpen : mobileOpen}
              onClick={wide ? desktop.toggle : mobile.toggle}
              size="sm"
              aria-label="menu"
              aria-expanded={wide ? desktopOpen : mobileOpen}
              data-testid="sidebar-toggle"
            />
            <Logo size={26} withText={wide} />
            <TeamLogo height={28} testId="topbar-logo" />
            {team.data ? (
              // Two lines on a phone rather than a name cut to "Northwind Trad…".
              <Text
                fw={600}
                lh={1.25}
                lineClamp={2}
                style={{ overflowWrap: 'anywhere' }}
                title={team.data.team_name}
                data-testid="team-name"
              >
                {team.data.team_name}
              </Text>
            ) : (
              <Skeleton h={18} w={140} />
            )}
            {team.data && ctx && <BillingBadge team={team.data} ctx={ctx} />}
            {ctx && <ApprovalsBadge ctx={ctx} />}
          </Group>
          {team.data && admin.data ? (
            <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
              <ElevationControl />
              <ProfileMenu
                team={team.data}
                name={admin.data.user_name}
                email={admin.data.user_email}
                hubVersion={hubVersion}
                canSwitchTeams={(teams.data?.length ?? 0) > 1}
              />
            </Group>
          ) : (
            <Skeleton h={36} w={36} circle />
          )}
        </Group>
      </AppShell.Header>
      {/* A closed sidebar (the phone's drawer, or hidden on a desktop) is out of the tab order and the accessibility tree. */}
      <AppShell.Navbar data-testid="sidebar" inert={!(wide ? desktopOpen : mobileOpen)}>
        {ctx && team.data ? (
          <Sidebar ctx={ctx} team={team.data} hubVersion={hubVersion} onNavigate={mobile.close} />
        ) : (
          <Stack p="sm" gap="xs">
            {[1, 2, 3, 4, 5, 6].map((n) => (
              <Skeleton key={n} h={36} />
            ))}
          </Stack>
        )}
      </AppShell.Navbar>
      {/* The frame's box is a div so the footer stays a landmark beside <main>, not inside it. */}
      <AppShell.Main component="div" style={{ display: 'flex', flexDirection: 'column' }}>
        <main style={{ flex: 1 }}>
          {isError ? (
            <DataFetchError onRetry={refetch} />
          ) : ready && !signingOut ? (
            <ConsoleContextProvider
              value={{ ctx, team: team.data, restricted: isRestricted(ctx.scopes), settingsRoutes: SETTINGS_ROUTES }}
            >
              <ConsoleRoutes />
            </ConsoleContextProvider>
          ) : (
            <PageSkeleton />
          )}
        </main>
        {(settled || isError) && <Footer />}
      </AppShell.Main>
    </AppShell>
  );
}

/**
 * True once the first page has its data (no call under way), and from then on. The footer waits
 * for it: under skeletons it would be pushed down when the content arrives, a layout shift;
 * shown after them it only appears below the page.
 */
function useSettled(ready: boolean): boolean {
  const fetching = useIsFetching();
  const client = useQueryClient();
  const [settled, setSettled] = useState(false);
  // The live count, not the rendered one: the screen's calls start in its effects, which run first.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-checked whenever the count changes
  useEffect(() => {
    if (ready && client.isFetching() === 0) setSettled(true);
  }, [ready, fetching, client]);
  return settled;
}

function PageSkeleton() {
  return (
    <Stack gap="md" data-testid="page-skeleton">
      <Skeleton h={28} w={240} />
      <Skeleton h={16} w={360} />
      <Skeleton h={180} mt="md" />
    </Stack>
  );
}
