import { DIRECTORY_CHANGE_KINDS, DIRECTORY_NOTE_KINDS, type DirectoryRun } from '@latchkey/contracts/client';
import { Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { formatNumber } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';

/** What a run changes (or would), by kind, with its first rows; what it leaves, and why, marked apart. */
export function PlanSummary({ run }: { run: DirectoryRun }) {
  const { t } = useTranslation();
  const shown = [...DIRECTORY_CHANGE_KINDS, ...DIRECTORY_NOTE_KINDS].filter((kind) => (run.counts[kind] ?? 0) > 0);
  if (shown.length === 0) return <Text size="sm">{t('directory.plan.nothing')}</Text>;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" data-testid="directory-plan">
      {shown.map((kind) => (
        <Stack key={kind} gap={4} data-testid={`directory-plan-${kind}`}>
          <Group gap="xs" wrap="nowrap">
            <Badge variant="light" color={(DIRECTORY_NOTE_KINDS as readonly string[]).includes(kind) ? 'orange' : 'blue'}>
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
