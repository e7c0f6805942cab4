import { Anchor, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useLocation } from 'wouter';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { trackInteraction } from '../../lib/analytics.ts';
import { formatNumber, formatPercent } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useActivityQuery } from './api.ts';
import { DashCard } from './DashCard.tsx';

/** Adoption categories and their colours (spec §9): green, amber, red. */
const ADOPTION = [
  { usage: 'active', stat: 'active_members', color: 'var(--mantine-color-teal-6)', key: 'dashboard.adoption.active' },
  { usage: 'inactive', stat: 'inactive_members', color: 'var(--mantine-color-yellow-5)', key: 'dashboard.adoption.inactive' },
  {
    usage: 'unresponsive',
    stat: 'unresponsive_members',
    color: 'var(--mantine-color-red-6)',
    key: 'dashboard.adoption.unresponsive',
  },
] as const;

/** A donut whose segments are links to /users with the usage filter preset (spec §2). */
export function AdoptionCard() {
  const { t } = useTranslation();
  const stats = useActivityQuery();
  const [, navigate] = useLocation();
  if (stats.isError) {
    return (
      <DashCard title={t('dashboard.adoption')} testId="adoption-card">
        <DataFetchError onRetry={() => void stats.refetch()} />
      </DashCard>
    );
  }
  if (!stats.data) {
    return (
      <DashCard title={t('dashboard.adoption')} testId="adoption-card">
        <Stack align="center" gap="md" data-testid="adoption-skeleton">
          <Skeleton circle h={160} w={160} />
          <Skeleton h={14} w="80%" />
          <Skeleton h={14} w="70%" />
        </Stack>
      </DashCard>
    );
  }
  const data = stats.data;
  const total = ADOPTION.reduce((n, a) => n + data[a.stat], 0);
  const r = 60;
  const c = 2 * Math.PI * r;
  let offset = 0;
  const open = (usage: string) => {
    trackInteraction('dashboard', `adoption_${usage}`);
    navigate(`/users?app_usage=${usage}`);
  };
  return (
    <DashCard title={t('dashboard.adoption')} testId="adoption-card">
      <Stack align="center" gap="md">
        <svg width={170} height={170} viewBox="0 0 170 170" aria-hidden>
          {ADOPTION.map((a) => {
            const length = total > 0 ? (data[a.stat] / total) * c : 0;
            const segment = (
              // biome-ignore lint/a11y/noStaticElementInteractions: a pointer shortcut; the legend links below are the keyboard and screen-reader way in
              <circle
                key={a.usage}
                cx={85}
                cy={85}
                r={r}
                fill="none"
                stroke={a.color}
                strokeWidth={22}
                strokeDasharray={`${length} ${c - length}`}
                strokeDashoffset={-offset}
                transform="rotate(-90 85 85)"
                style={{ cursor: 'pointer' }}
                onClick={() => open(a.usage)}
              />
            );
            offset += length;
            return segment;
          })}
          <text x="85" y="82" textAnchor="middle" fontSize="22" fontWeight={700} fill="currentColor">
            {formatNumber(total)}
          </text>
          <text x="85" y="102" textAnchor="middle" fontSize="11" fill="var(--mantine-color-dimmed)">
            {t('dashboard.members')}
          </text>
        </svg>
        {/* The text equivalent, and the keyboard way in: one link per segment. */}
        <Stack gap={6} w="100%">
          {ADOPTION.map((a) => (
            <Anchor
              key={a.usage}
              href={`#/users?app_usage=${a.usage}`}
              onClick={(e) => {
                e.preventDefault();
                open(a.usage);
              }}
              underline="hover"
              c="inherit"
              data-testid={`adoption-${a.usage}`}
            >
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Group gap={8} wrap="nowrap">
                  <span style={{ width: 10, height: 10, borderRadius: 5, background: a.color, flex: 'none' }} />
                  <Text size="sm">{t(a.key)}</Text>
                </Group>
                <Text size="sm" fw={600}>
                  {formatNumber(data[a.stat])} · {formatPercent(total > 0 ? data[a.stat] / total : 0)}
                </Text>
              </Group>
            </Anchor>
          ))}
        </Stack>
      </Stack>
    </DashCard>
  );
}
