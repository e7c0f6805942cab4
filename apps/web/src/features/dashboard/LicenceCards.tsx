import { BILL_STATE_DISPLAY, type BillState } from '@latchkey/contracts/client';
import { Card, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { useConsoleContext } from '../../lib/console-context.ts';
import { formatNumber, formatPercent, isolate } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useLicenceSummaryQuery } from './api.ts';
import { DashCard } from './DashCard.tsx';
import { gaugeLabelKey, gaugePercent } from './rules.ts';

/** How the gauge reads: a share of the licences, no limit at all, or nothing active (the subscription ended). */
type GaugeReading = { kind: 'percent'; percent: number } | { kind: 'unlimited' } | { kind: 'ended' };

/**
 * A read-only 280° arc, 110 px, the percentage in the middle (spec §9). Unlimited licences leave the
 * arc empty with ∞ in the middle (a full arc reads "all used"); an ended subscription shows a lock.
 */
function Gauge({ reading, label }: { reading: GaugeReading; label: string }) {
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
  const track = reading.kind === 'ended' ? 'var(--mantine-color-red-1)' : 'var(--mantine-color-gray-2)';
  return (
    <svg
      width={110}
      height={110}
      viewBox="0 0 110 110"
      role="img"
      aria-label={label}
      data-testid="licence-gauge"
      data-reading={reading.kind}
      style={{ flexShrink: 0 }}
    >
      <circle {...common} stroke={track} strokeDasharray={`${arc} ${circumference}`} />
      {reading.kind === 'percent' && (
        <>
          <circle
            {...common}
            stroke="var(--mantine-color-indigo-6)"
            strokeDasharray={`${(arc * reading.percent) / 100} ${circumference}`}
          />
          <text x="55" y="60" textAnchor="middle" fontSize="20" fontWeight={700} fill="currentColor">
            {formatPercent(reading.percent / 100)}
          </text>
        </>
      )}
      {reading.kind === 'unlimited' && (
        <text x="55" y="66" textAnchor="middle" fontSize="36" fontWeight={600} fill="var(--mantine-color-indigo-6)">
          ∞
        </text>
      )}
      {reading.kind === 'ended' && (
        <g transform="translate(37 37) scale(1.5)" stroke="var(--mantine-color-red-7)" strokeWidth={1.75} fill="none">
          <path d={LOCK} strokeLinecap="round" strokeLinejoin="round" />
        </g>
      )}
    </svg>
  );
}

const LOCK =
  'M5 13a2 2 0 0 1 2-2h10a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2zM11 16a1 1 0 1 0 2 0a1 1 0 0 0-2 0M8 11V7a4 4 0 1 1 8 0v4';

/**
 * The licence gauge and its figures: used of total, or used when unlimited. Once the subscription
 * has ended no licence is active, whatever the counts say: the card says so instead of "4 of 10".
 */
export function LicenceCard() {
  const { t } = useTranslation();
  const summary = useLicenceSummaryQuery();
  const { team } = useConsoleContext();
  const ended = BILL_STATE_DISPLAY[team.bill_state as BillState] === 'ended';
  const data = summary.data;
  const unlimited = data ? data.total_subscriptions < 0 : false;
  const reading: GaugeReading = ended
    ? { kind: 'ended' }
    : unlimited
      ? { kind: 'unlimited' }
      : { kind: 'percent', percent: data ? gaugePercent(data) : 0 };
  const heading = data ? t(ended ? 'dashboard.licences_inactive' : gaugeLabelKey(data)) : '';
  return (
    <DashCard title={t('dashboard.licences')} testId="licence-card">
      {summary.isError ? (
        <DataFetchError onRetry={() => void summary.refetch()} />
      ) : !data ? (
        <Group gap="lg">
          <Skeleton circle h={110} w={110} />
          <Stack gap="xs">
            <Skeleton h={16} w={160} />
            <Skeleton h={16} w={120} />
          </Stack>
        </Group>
      ) : (
        <Group gap="xl" wrap="nowrap" data-state={ended ? 'ended' : unlimited ? 'unlimited' : 'counted'}>
          <Gauge reading={reading} label={heading} />
          <Stack gap={4} miw={0}>
            <Text fw={600} c={ended ? 'red.8' : undefined} data-testid="licence-heading">
              {heading}
            </Text>
            <Text size="sm" data-testid="licence-figures">
              {ended && !unlimited
                ? t('dashboard.licences_ended', {
                    used: isolate(formatNumber(data.active_subscriptions)),
                    total: isolate(formatNumber(data.total_subscriptions)),
                  })
                : unlimited
                  ? t('dashboard.licences_unlimited', { used: isolate(formatNumber(data.active_subscriptions)) })
                  : t('dashboard.licences_used_of', {
                      used: isolate(formatNumber(data.active_subscriptions)),
                      total: isolate(formatNumber(data.total_subscriptions)),
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
