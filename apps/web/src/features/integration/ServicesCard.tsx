import { type AuxServiceFlag, type HubServer, SERVICE_STATUS } from '@latchkey/contracts/client';
import { Badge, Group, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SectionCard } from '../../components/SectionCard.tsx';
import { errorValues } from '../../lib/api-error.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { teamKeys } from '../team/index.ts';
import { switchAuxService } from './api.ts';
import { featureState, SERVICE_ROWS, toggleErrorMessage } from './hub-features.ts';
import { Hint } from './Section.tsx';

/** Switches each auxiliary service on or off; the server asks the Hub before it agrees. */
export function ServicesCard({ hub }: { hub: HubServer | null }) {
  const { t } = useTranslation();
  const team = useTeamSlug();
  const client = useQueryClient();
  const toggle = useMutation({
    mutationFn: ({ flag, on }: { flag: AuxServiceFlag; on: boolean }) => switchAuxService(hub?.credential_id ?? '', flag, on),
    onSuccess: (reply) => {
      client.setQueryData(teamKeys.services(team), (old: HubServer[] | undefined) =>
        old?.map((s) => (s.credential_id === reply.server.credential_id ? reply.server : s)),
      );
      notifications.show({ color: 'teal', message: t('integration.services.updated') });
    },
    onError: (error) => notifications.show({ color: 'red', message: t(toggleErrorMessage(error), errorValues(error)) }),
    onSettled: () => void client.invalidateQueries({ queryKey: teamKeys.services(team) }),
  });

  return (
    <SectionCard title={t('integration.services.title')} testId="hub-services">
      {!hub && <Hint>{t('integration.services.needs_hub')}</Hint>}
      <Stack gap={0}>
        {SERVICE_ROWS.map(({ flag, service, feature }) => {
          const state = hub?.services[service];
          const version = feature ? featureState(hub?.hub_version, feature) : null;
          const tooOld = version?.state === 'upgrade';
          const on = Boolean(state?.enabled);
          return (
            <Group
              key={flag}
              justify="space-between"
              py="sm"
              gap="sm"
              wrap="nowrap"
              style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
              data-testid={`service-${service}`}
            >
              <Stack gap={2} miw={0}>
                <Group gap="xs">
                  <Text fw={500}>{t(`integration.service.${service}`)}</Text>
                  {on && (
                    <Badge size="sm" variant="light" color={state?.status === SERVICE_STATUS.error ? 'red' : 'teal'}>
                      {t(state?.status === SERVICE_STATUS.error ? 'integration.status.error' : 'integration.status.active')}
                    </Badge>
                  )}
                </Group>
                {tooOld && version && (
                  <Text size="sm" c="orange" data-testid={`service-${service}-upgrade`}>
                    {t('integration.features.upgrade', { version: version.version })}
                  </Text>
                )}
              </Stack>
              <Switch
                checked={on}
                disabled={!hub || (tooOld && !on) || toggle.isPending}
                onChange={(e) => toggle.mutate({ flag, on: e.currentTarget.checked })}
                aria-label={t(`integration.service.${service}`)}
                data-testid={`toggle-${service}`}
              />
            </Group>
          );
        })}
      </Stack>
    </SectionCard>
  );
}
