import type { DirectoryRun } from '@latchkey/contracts/client';
import { Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { formatNumber } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';

/** What a run changes (or would), by kind, in the order an admin reads it; notes (not done) apart. */
export const CHANGE_KINDS = [
  'invite',
  'update',
  'suspend',
  'restore',
  'remove',
  'group_create',
  'group_rename',
  'group_fill',
] as const;
export const NOTE_KINDS = ['not_fitting', 'no_email', 'admin_skipped', 'scim_skipped'] as const;

export function PlanSummary({ run }: { run: DirectoryRun }) {
  const { t } = useTranslation();
  const shown = [...CHANGE_KINDS, ...NOTE_KINDS].filter((kind) => (run.counts[kind] ?? 0) > 0);
  if (shown.length === 0) return <Text size="sm">{t('directory.plan.nothing')}</Text>;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" data-testid="directory-plan">
      {shown.map((kind) => (
        <Stack key={kind} gap={4} data-testid={`directory-plan-${kind}`}>
          <Group gap="xs" wrap="nowrap">
            <Badge variant="light" color={(NOTE_KINDS as readonly string[]).includes(kind) ? 'orange' : 'blue'}>
              {formatNumber(run.counts[kind] ?? 0)}
            </Badge>
            <Text size="sm" fw={500}>
              {t(`directory.plan.${kind}`)}
            </Text>
          </Group>
          {(run.sample[kind] ?? []).map((row) => (
            <Text key={row} size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {row}
            </Text>
          ))}
        </Stack>
      ))}
    </SimpleGrid>
  );
}
