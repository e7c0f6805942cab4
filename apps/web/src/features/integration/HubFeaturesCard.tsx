import { FEATURE_VERSIONS, type Feature } from '@latchkey/contracts/client';
import { Badge, Table, Text } from '@mantine/core';
import { useTranslation } from '../../lib/use-translation.ts';
import { featureState } from './hub-features.ts';
import { Section } from './Section.tsx';

const FEATURES = Object.keys(FEATURE_VERSIONS) as Feature[];

/** Spec §1 feature versions: what the connected Hub runs, and which upgrade unlocks the rest. */
export function HubFeaturesCard({ hubVersion }: { hubVersion: string | null }) {
  const { t } = useTranslation();
  return (
    <Section title={t('integration.features.title')} testId="hub-features">
      <Table.ScrollContainer minWidth={420}>
        <Table verticalSpacing="xs">
          <Table.Tbody>
            {FEATURES.map((feature) => {
              const state = featureState(hubVersion, feature);
              return (
                <Table.Tr key={feature} data-testid={`feature-${feature}`} data-state={state.state}>
                  <Table.Td>
                    <Text size="sm">{t(`hub.feature.${feature}`)}</Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    {state.state === 'available' ? (
                      <Badge color="teal" variant="light">
                        {t('integration.features.available')}
                      </Badge>
                    ) : (
                      <Text size="sm" c={state.state === 'upgrade' ? 'orange.8' : 'dimmed'}>
                        {t(state.state === 'upgrade' ? 'integration.features.upgrade' : 'integration.features.no_hub', {
                          version: state.version,
                        })}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Section>
  );
}
