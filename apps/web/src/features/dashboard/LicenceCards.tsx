import { Card, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { formatNumber, formatPercent } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useLicenceSummaryQuery } from './api.ts';
import { DashCard } from './DashCard.tsx';
import { gaugeLabelKey, gaugePercent } from './rules.ts';

/** A read-only 280° arc, 110 px, the percentage in the middle (spec §9). */
function Gauge({ percent, label }: { percent: number; label: string }) {
  const r = 47;
  const circumference = 2 * Math.PI * r;
  const arc = (280 / 360) * circumference;
  const common = {
    cx: 55,
    cy: 55,
    r,
    fill: 'none',
    strokeWidth: 10,
    strokeLinecap: 'round' as const,
    transform: 'rotate(130 55 55)',
  };
  return (
    <svg width={110} height={110} viewBox="0 0 110 110" role="img" aria-label={label} data-testid="licence-gauge">
      <circle {...common} stroke="var(--mantine-color-gray-2)" strokeDasharray={`${arc} ${circumference}`} />
      <circle {...common} stroke="var(--mantine-color-indigo-6)" strokeDasharray={`${(arc * percent) / 100} ${circumference}`} />
      <text x="55" y="60" textAnchor="middle" fontSize="20" fontWeight={700} fill="currentColor">
        {formatPercent(percent / 100)}
      </text>
    </svg>
  );
}

/** The licence gauge and its figures: used of total, or used when unlimited. */
export function LicenceCard() {
  const { t } = useTranslation();
  const summary = useLicenceSummaryQuery();
  return (
    <DashCard title={t('dashboard.licences')} testId="licence-card">
      {summary.isError ? (
        <DataFetchError onRetry={() => void summary.refetch()} />
      ) : !summary.data ? (
        <Group gap="lg">
          <Skeleton circle h={110} w={110} />
          <Stack gap="xs">
            <Skeleton h={16} w={160} />
            <Skeleton h={16} w={120} />
          </Stack>
        </Group>
      ) : (
        <Group gap="xl" wrap="nowrap">
          <Gauge percent={gaugePercent(summary.data)} label={t(gaugeLabelKey(summary.data))} />
          <Stack gap={4}>
            <Text fw={600}>{t(gaugeLabelKey(summary.data))}</Text>
            <Text size="sm" data-testid="licence-figures">
              {summary.data.total_subscriptions < 0
                ? t('dashboard.licences_unlimited', { used: formatNumber(summary.data.active_subscriptions) })
                : t('dashboard.licences_used_of', {
                    used: formatNumber(summary.data.active_subscriptions),
                    total: formatNumber(summary.data.total_subscriptions),
                  })}
            </Text>
          </Stack>
        </Group>
      )}
    </DashCard>
  );
}

/** A family's licences: total, used and available, one card each. */
export function FamilyLicenceCards() {
  const { t } = useTranslation();
  const summary = useLicenceSummaryQuery();
  if (summary.isError) return <DataFetchError onRetry={() => void summary.refetch()} />;
  const s = summary.data;
  const unlimited = s ? s.total_subscriptions < 0 : false;
  const cards = [
    { key: 'dashboard.family_total', value: s ? (unlimited ? '–' : formatNumber(s.total_subscriptions)) : null },
    { key: 'dashboard.family_used', value: s ? formatNumber(s.active_subscriptions) : null },
    {
      key: 'dashboard.family_available',
      value: s ? (unlimited ? '–' : formatNumber(Math.max(0, s.total_subscriptions - s.active_subscriptions))) : null,
    },
  ];
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg" data-testid="family-licence-cards">
      {cards.map((c) => (
        <Card key={c.key} withBorder radius="md" padding="lg">
          <Text size="sm" c="dimmed">
            {t(c.key)}
          </Text>
          {c.value === null ? (
            <Skeleton h={28} w={60} mt={6} />
          ) : (
            <Text fw={700} size="xl" mt={4}>
              {c.value}
            </Text>
          )}
        </Card>
      ))}
    </SimpleGrid>
  );
}
