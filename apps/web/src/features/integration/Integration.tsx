import { Alert, Skeleton, Stack } from '@mantine/core';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { useTranslation } from '../../lib/use-translation.ts';
import { useAuxServicesQuery } from '../team/index.ts';
import { ConnectedHubCard } from './ConnectedHubCard.tsx';
import { ConnectHubCard } from './ConnectHubCard.tsx';
import { CredentialsCard } from './CredentialsCard.tsx';
import { HostingCard } from './HostingCard.tsx';
import { HubFeaturesCard } from './HubFeaturesCard.tsx';
import { ServicesCard } from './ServicesCard.tsx';

/** /integration (super admin or integrator): the team's Hub, its services, credentials and hosting. */
export function Integration() {
  const { t } = useTranslation();
  const servers = useAuxServicesQuery();
  if (servers.isError) return <DataFetchError onRetry={() => void servers.refetch()} />;
  if (!servers.data) {
    return (
      <Stack gap="md" data-testid="integration-loading">
        <Skeleton h={140} />
        <Skeleton h={220} />
      </Stack>
    );
  }
  const hub = servers.data[0] ?? null;
  return (
    <Stack gap="lg" data-testid="integration">
      {hub && !hub.reachable && (
        <Alert color="red" data-testid="hub-unreachable">
          {t('hub_connection_failed')}
        </Alert>
      )}
      {hub ? <ConnectedHubCard hub={hub} /> : <ConnectHubCard />}
      <ServicesCard hub={hub} />
      <HubFeaturesCard hubVersion={hub?.hub_version ?? null} />
      <CredentialsCard />
      <HostingCard hubConnected={hub !== null} />
    </Stack>
  );
}
