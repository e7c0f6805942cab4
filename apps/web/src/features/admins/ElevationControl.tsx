import { Badge, Button, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Icon } from '../../components/Icon.tsx';
import { refreshSession } from '../../lib/api.ts';
import { formatCountdown, formatTime } from '../../lib/format.ts';
import { getSession } from '../../lib/session.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { teamKeys } from '../team/index.ts';
import { type Elevation, useDropElevationMutation, useMyElevationsQuery } from './api.ts';
import { ElevationDialog } from './ElevationDialog.tsx';
import { useNow } from './use-now.ts';

/**
 * The top bar's just-in-time control: ask for a scope, see it waiting or running with its
 * countdown, and drop it. When an elevation starts or ends, the admin's scopes are read again
 * (the server's truth, per request) and the Hub's tokens renewed, so no sign-in is needed.
 */
export function ElevationControl() {
  const { t } = useTranslation();
  const mine = useMyElevationsQuery();
  const [asking, setAsking] = useState(false);
  const drop = useDropElevationMutation();
  const data = mine.data;
  const open = data?.elevations.filter((e) => e.status !== 'ended') ?? [];
  const now = useNow(open.some((e) => e.status === 'active'));
  const live = open.filter((e) => e.status === 'pending' || (e.expires_at ?? 0) > now);
  useScopesFollow(live, () => void mine.refetch());

  if (!data?.settings.enabled || (data.eligible_scopes.length === 0 && live.length === 0)) return null;
  const free = data.eligible_scopes.filter((s) => !live.some((e) => e.scope === s));
  return (
    <Group gap="xs" wrap="nowrap" data-testid="elevation-control">
      {live.map((e) => (
        <Menu key={e.id} position="bottom-end" withinPortal>
          <Menu.Target>
            <UnstyledButton>
              <Badge
                variant={e.status === 'active' ? 'filled' : 'light'}
                color={e.status === 'active' ? 'indigo' : 'yellow'}
                leftSection={<Icon name="lock" size={12} />}
                data-testid="elevation-badge"
                data-status={e.status}
              >
                {/* On a phone the countdown alone (the scope is in the menu's title), so it is never cut. */}
                <Text span inherit visibleFrom="sm">
                  {e.status === 'active'
                    ? t('admins.elevation.active_badge', {
                        scope: t(`admins.scope.${e.scope}`),
                        left: formatCountdown((e.expires_at ?? now) - now),
                      })
                    : t('admins.elevation.pending_badge', { scope: t(`admins.scope.${e.scope}`) })}
                </Text>
                <Text span inherit hiddenFrom="sm">
                  {e.status === 'active' ? formatCountdown((e.expires_at ?? now) - now) : t(`admins.scope.${e.scope}`)}
                </Text>
              </Badge>
            </UnstyledButton>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>{t('admins.elevation.manage', { scope: t(`admins.scope.${e.scope}`) })}</Menu.Label>
            <Menu.Label>
              {e.status === 'active'
                ? t('admins.elevation.until', { time: formatTime(e.expires_at ?? now) })
                : t('admins.elevation.waiting', { time: formatTime(e.requested_at) })}
            </Menu.Label>
            <Menu.Item
              color="red.9"
              data-testid="elevation-drop"
              onClick={() =>
                drop.mutate(e.id, {
                  onSuccess: () =>
                    notifications.show({
                      color: 'teal',
                      message: t(e.status === 'active' ? 'admins.elevation.dropped' : 'admins.elevation.withdrawn'),
                    }),
                })
              }
            >
              {t(e.status === 'active' ? 'admins.elevation.drop' : 'admins.elevation.withdraw')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ))}
      {free.length > 0 && (
        <Button
          size="xs"
          variant="light"
          leftSection={<Icon name="lock" size={14} />}
          onClick={() => setAsking(true)}
          data-testid="elevation-open"
        >
          {t('admins.elevation.open')}
        </Button>
      )}
      {asking && (
        <ElevationDialog
          eligible={free}
          selfScopes={data.settings.self_scopes}
          approversAvailable={data.approvers_available}
          onClose={() => setAsking(false)}
        />
      )}
    </Group>
  );
}

/**
 * When the set of running elevations changes (one approved, dropped or past its time), the scopes
 * the console's guard and sidebar use are read again from the server, and the Hub's tokens are
 * renewed so the Hub's session follows at once. At an active elevation's expiry the list is read again.
 */
function useScopesFollow(live: Elevation[], refetch: () => void) {
  const client = useQueryClient();
  const team = useTeamSlug();
  const active = live
    .filter((e) => e.status === 'active')
    .map((e) => `${e.id}:${e.expires_at}`)
    .sort()
    .join(',');
  // Starts from none running: one already running at sign-in brings its scope to the Hub's session too.
  const seen = useRef('');
  useEffect(() => {
    if (seen.current !== active) {
      void client.invalidateQueries({ queryKey: teamKeys.scopes(team) });
      if (getSession()?.hub) void refreshSession('hub').catch(() => undefined);
    }
    seen.current = active;
  }, [active, client, team]);
  const nextEnd = Math.min(...live.filter((e) => e.status === 'active').map((e) => e.expires_at ?? Number.POSITIVE_INFINITY));
  useEffect(() => {
    if (!Number.isFinite(nextEnd)) return;
    const timer = setTimeout(refetch, Math.max(0, nextEnd - Date.now()) + 500);
    return () => clearTimeout(timer);
  }, [nextEnd, refetch]);
}
