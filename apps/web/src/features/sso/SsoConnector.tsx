import { Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { useTranslation } from '../../lib/use-translation.ts';
import { useSsoConfigsQuery } from './api.ts';
import { ConnectorCard } from './sections/ConnectorCard.tsx';
import { CreateDialog } from './sections/CreateDialog.tsx';
import { EnforcementCard } from './sections/EnforcementCard.tsx';
import { ServiceProviderCard } from './sections/ServiceProviderCard.tsx';

/** settings/sso-connector: the service provider to copy, the connectors, the tester, enforcement. */
export function SsoConnector() {
  const { t } = useTranslation();
  const configs = useSsoConfigsQuery();
  const [creating, setCreating] = useState(false);
  if (configs.isError) return <DataFetchError onRetry={() => void configs.refetch()} />;
  return (
    <Stack gap="lg" data-testid="sso-connector">
      <ServiceProviderCard />
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('sso.connectors')}
          </Title>
          <Button onClick={() => setCreating(true)} data-testid="sso-create">
            {t('sso.create')}
          </Button>
        </Group>
        {configs.isPending ? (
          <Skeleton h={160} />
        ) : configs.data.configs.length === 0 ? (
          <Card withBorder padding="lg">
            <Text c="dimmed" size="sm" data-testid="sso-empty">
              {t('sso.empty')}
            </Text>
          </Card>
        ) : (
          configs.data.configs.map((config) => <ConnectorCard key={config.config_uuid} config={config} />)
        )}
      </Stack>
      <EnforcementCard />
      {creating && <CreateDialog onClose={() => setCreating(false)} />}
    </Stack>
  );
}
