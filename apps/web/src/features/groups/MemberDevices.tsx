import type { DeviceType, MemberDevice } from '@latchkey/contracts/client';
import { Badge, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useParams } from 'wouter';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { EmailAddress } from '../../components/EmailAddress.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { MemberManagedNote, MemberSourceBadge } from '../members/index.ts';
import { useMemberDevicesQuery } from './api.ts';

const TYPE_COLORS: Record<DeviceType, string> = { desktop: 'indigo', mobile: 'grape', browser_extension: 'cyan', web: 'gray' };

/** Wouter hands the route parameter over still percent-encoded. */
const decode = (value: string): string => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/** /users/{userData} and /groups/{groupId}/{userData}: the devices a member uses the apps on. */
// The policy slice loads only when a member's page is opened.
const EffectivePolicy = lazy(async () => ({
  default: (await import('../policies/index.ts')).EffectivePolicy,
}));

export function MemberDevices() {
  const { t } = useTranslation();
  const params = useParams<{ userData: string; groupId?: string }>();
  const email = decode(params.userData ?? '');
  const groupId = params.groupId;
  const query = useMemberDevicesQuery(email, groupId);
  const columns = useDeviceColumns();

  if (query.isError) return <DataFetchError onRetry={() => void query.refetch()} />;
  const data = query.data;
  return (
    <Stack gap="md" data-testid="member-devices">
      <Card withBorder radius="md" padding="lg">
        {data ? (
          <Stack gap={2}>
            <Group gap="sm" wrap="wrap">
              <Title order={2} size="h3" data-testid="device-member-name">
                {data.member.name || <EmailAddress address={data.member.email} />}
              </Title>
              {data.member.source !== 'console' && <MemberSourceBadge source={data.member.source} />}
            </Group>
            <Text size="sm" c="dimmed">
              <EmailAddress address={data.member.email} />
            </Text>
            <MemberManagedNote source={data.member.source} />
          </Stack>
        ) : (
          <Stack gap="xs">
            <Skeleton h={24} w={220} />
            <Skeleton h={14} w={260} />
          </Stack>
        )}
      </Card>
      <DataTable
        columns={columns}
        rows={data?.devices}
        rowKey={(d) => d.id}
        rowProps={() => ({ 'data-testid': 'device-row' })}
        testId="devices-table"
        minWidth={760}
        skeletonRows={2}
        highlightOnHover={false}
        emptyTestId="devices-empty"
        empty={
          <>
            <Text fw={500}>{t('devices.empty')}</Text>
            <Text size="sm" c="dimmed">
              {t('devices.empty.body')}
            </Text>
          </>
        }
      />
      <Card withBorder radius="md" padding="lg">
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('policy.effective.title')}
          </Title>
          <Suspense fallback={<Skeleton h={120} />}>
            <EffectivePolicy email={email} />
          </Suspense>
        </Stack>
      </Card>
    </Stack>
  );
}

function useDeviceColumns(): Column<MemberDevice>[] {
  const { t } = useTranslation();
  return [
    {
      key: 'device',
      header: 'devices.col.device',
      cell: (d) => (
        <>
          <Text size="sm" fw={500}>
            {d.name}
          </Text>
          <Badge size="xs" variant="light" color={TYPE_COLORS[d.type]}>
            {t(`devices.type.${d.type}`)}
          </Badge>
        </>
      ),
    },
    {
      key: 'platform',
      header: 'devices.col.platform',
      cell: (d) => (
        <>
          <Text size="sm">{`${d.os} ${d.os_version}`.trim()}</Text>
          {d.browser && (
            <Text size="xs" c="dimmed">
              {d.browser}
            </Text>
          )}
        </>
      ),
    },
    { key: 'app_version', header: 'devices.col.app_version', cell: (d) => <Text size="sm">{d.app_version}</Text> },
    { key: 'last_seen', header: 'devices.col.last_seen', cell: (d) => <Text size="sm">{formatDateTime(d.last_seen_at)}</Text> },
    {
      key: 'hub',
      header: 'devices.col.hub',
      cell: (d) =>
        d.hub_authenticated_at ? (
          <Group gap={6} wrap="nowrap">
            <Badge variant="light" color="teal" data-testid="hub-auth">
              {t('devices.hub.authenticated')}
            </Badge>
            <Text size="xs" c="dimmed">
              {formatDateTime(d.hub_authenticated_at)}
            </Text>
          </Group>
        ) : (
          <Badge variant="light" color="gray" data-testid="hub-auth">
            {t('devices.hub.not_authenticated')}
          </Badge>
        ),
    },
  ];
}
