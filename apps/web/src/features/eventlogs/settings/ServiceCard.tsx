import { Skeleton, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SectionCard } from '../../../components/SectionCard.tsx';
import { errorMessage, errorValues } from '../../../lib/api-error.ts';
import { useTeamSlug } from '../../../lib/team-slug.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { switchAuxService } from '../../integration/index.ts';
import { teamKeys } from '../../team/index.ts';
import { eventKeys } from '../api.ts';

export function ServiceCard({ credentialId, on, loading }: { credentialId: string; on: boolean; loading: boolean }) {
  const { t } = useTranslation();
  const team = useTeamSlug();
  const client = useQueryClient();
  const toggle = useMutation({
    mutationFn: (next: boolean) => switchAuxService(credentialId, 'enable_audit_logs', next),
    onSuccess: () => notifications.show({ color: 'teal', message: t('eventlogs.settings.service_updated') }),
    onError: (error) => notifications.show({ color: 'red', message: t(errorMessage(error), errorValues(error)) }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: teamKeys.services(team) });
      void client.invalidateQueries({ queryKey: eventKeys.all(team) });
    },
  });
  return (
    <SectionCard
      title={t('eventlogs.settings.service_title')}
      testId="eventlogs-service-card"
      action={
        loading ? (
          <Skeleton h={24} w={44} />
        ) : (
          <Switch
            checked={on}
            disabled={toggle.isPending || !credentialId}
            onChange={(e) => toggle.mutate(e.currentTarget.checked)}
            aria-label={t('eventlogs.settings.service_title')}
            data-testid="eventlogs-service-toggle"
          />
        )
      }
    >
      <Text size="sm" c="dimmed">
        {t(on ? 'eventlogs.settings.service_on' : 'eventlogs.settings.service_off')}
      </Text>
    </SectionCard>
  );
}
