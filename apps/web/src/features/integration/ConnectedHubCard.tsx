import type { HubServer } from '@latchkey/contracts/client';
import { Badge, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { SectionCard } from '../../components/SectionCard.tsx';
import { useTeamSlug } from '../../lib/team-slug.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { teamKeys } from '../team/index.ts';
import { deleteConnector, integrationKeys } from './api.ts';

/** The connected Hub: address, version, whether it answers, and deleting the connector. */
export function ConnectedHubCard({ hub }: { hub: HubServer }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  return (
    <SectionCard
      title={t('integration.connection.title')}
      testId="hub-connected"
      action={
        <Button color="red" variant="light" size="sm" onClick={() => setConfirming(true)} data-testid="hub-delete-open">
          {t('integration.connection.delete')}
        </Button>
      }
    >
      <Group gap="sm" wrap="wrap">
        <Text fw={500} style={{ wordBreak: 'break-all' }} data-testid="hub-address">
          {hub.server_url}
        </Text>
        {hub.hub_version && (
          <Badge variant="light" data-testid="hub-version">
            {t('integration.connection.version', { version: hub.hub_version })}
          </Badge>
        )}
        <Badge color={hub.reachable ? 'teal' : 'red'} variant="dot" data-testid="hub-reachable">
          {t(hub.reachable ? 'integration.connection.connected' : 'integration.status.error')}
        </Badge>
      </Group>
      {confirming && <DeleteConnectorDialog hub={hub} onClose={() => setConfirming(false)} />}
    </SectionCard>
  );
}

/** Delete connector (spec §7 /delete/connector/): asks first, then the Hub and the server forget the connection. */
function DeleteConnectorDialog({ hub, onClose }: { hub: HubServer; onClose: () => void }) {
  const { t } = useTranslation();
  const team = useTeamSlug();
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deleteConnector(hub, team),
    onSuccess: async () => {
      notifications.show({ color: 'teal', message: t('integration.connection.deleted') });
      await client.invalidateQueries({ queryKey: integrationKeys.credentials(team) });
      await client.invalidateQueries({ queryKey: teamKeys.services(team) });
      onClose();
    },
  });
  return (
    <ConfirmDialog
      title={t('integration.connection.delete')}
      action={t('integration.connection.delete')}
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate()}
      onClose={onClose}
      testId="hub-delete-dialog"
      confirmTestId="hub-delete-confirm"
    >
      {t('integration.connection.delete_confirm')}
    </ConfirmDialog>
  );
}
