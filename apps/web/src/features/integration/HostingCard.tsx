import { HOSTING_PREFERENCES, type HostingPreference } from '@latchkey/contracts/client';
import { SegmentedControl, Skeleton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SectionCard } from '../../components/SectionCard.tsx';
import { errorMessage, errorValues } from '../../lib/api-error.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { integrationKeys, saveHostingPreference, useHostingQuery } from './api.ts';
import { Hint } from './Section.tsx';

/**
 * Where the team runs its auxiliary services (spec §7 api/v1/aux/hosting/preferences/). Once a Hub
 * is connected the question is answered: it shows as self-hosted, and "not decided" is not offered.
 */
export function HostingCard({ hubConnected }: { hubConnected: boolean }) {
  const { t } = useTranslation();
  const team = useTeamSlug();
  const client = useQueryClient();
  const hosting = useHostingQuery();
  const phone = useMediaQuery('(max-width: 35.99em)');
  const save = useMutation({
    mutationFn: saveHostingPreference,
    onSuccess: (reply) => {
      client.setQueryData(integrationKeys.hosting(team), reply);
      notifications.show({ color: 'teal', message: t('integration.hosting.saved') });
    },
    onError: (error) => notifications.show({ color: 'red', message: t(errorMessage(error), errorValues(error)) }),
  });
  return (
    <SectionCard title={t('integration.hosting.title')} testId="hub-hosting">
      <Hint>{t('integration.hosting.intro')}</Hint>
      {hosting.data ? (
        <SegmentedControl
          value={hubConnected ? 'self_hosted' : hosting.data.hosting}
          onChange={(v) => save.mutate(v as HostingPreference)}
          disabled={save.isPending}
          data={HOSTING_PREFERENCES.map((value) => ({
            value,
            label: t(`integration.hosting.${value}`),
            disabled: hubConnected && value === 'not_set',
          }))}
          // Stacked on a phone: the two choices side by side are wider than its screen.
          orientation={phone ? 'vertical' : 'horizontal'}
          style={{ alignSelf: 'flex-start' }}
          data-testid="hosting-choice"
        />
      ) : (
        <Skeleton h={36} w={280} />
      )}
    </SectionCard>
  );
}
