import { FEATURE_VERSIONS, type Feature } from '@latchkey/contracts/client';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { SectionCard } from '../../components/SectionCard.tsx';
import { useTranslation } from '../../lib/use-translation.ts';
import { featureState } from './hub-features.ts';

const FEATURES = Object.keys(FEATURE_VERSIONS) as Feature[];

/** Spec §1 feature versions: what the connected Hub runs, and which upgrade unlocks the rest. */
export function HubFeaturesCard({ hubVersion }: { hubVersion: string | null }) {
  const { t } = useTranslation();
  return (
    <SectionCard title={t('integration.features.title')} testId="hub-features">
      <Stack gap={0}>
        {FEATURES.map((feature) => {
          const state = featureState(hubVersion, feature);
          return (
            <Group
              key={feature}
              justify="space-between"
              gap="xs"
              py="xs"
              style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
              data-testid={`feature-${feature}`}
              data-state={state.state}
            >
              <Text size="sm">{t(`hub.feature.${feature}`)}</Text>
              {state.state === 'available' ? (
                <Badge color="teal" variant="light">
                  {t('integration.features.available')}
                </Badge>
              ) : (
                <Text size="sm" c={state.state === 'upgrade' ? 'orange' : 'dimmed'}>
                  {t(state.state === 'upgrade' ? 'integration.features.upgrade' : 'integration.features.no_hub', {
                    version: state.version,
                  })}
                </Text>
              )}
            </Group>
          );
        })}
      </Stack>
    </SectionCard>
  );
}
