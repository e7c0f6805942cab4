import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { CARD_QUERY } from '../../components/DataTable.tsx';
import { useTranslation } from '../../lib/use-translation.ts';
import { formatHistoryValue, policyLabel } from './format.ts';

const KIND_COLOR = { added: 'green', removed: 'red', changed: 'blue' } as const;

/** One key's difference between two versions of a policy. */
export interface PolicyDiffRow {
  key: string;
  kind: 'added' | 'removed' | 'changed';
  before: unknown;
  after: unknown;
}

/**
 * A policy change as a table, one row per key: what it was (struck through), what it becomes, and
 * whether it was added, removed or changed. The history and the approval requests both show it.
 */
export function PolicyDiff({ changes, testId = 'policy-diff' }: { changes: readonly PolicyDiffRow[]; testId?: string }) {
  const { t } = useTranslation();
  // On a phone each key is a short block (before, then after) instead of a table wider than the screen.
  const stacked = useMediaQuery(CARD_QUERY, false, { getInitialValueInEffect: false });
  if (changes.length === 0)
    return (
      <Text ta="center" c="dimmed" py="xl">
        {t('policy.history.no_change')}
      </Text>
    );
  if (stacked)
    return (
      <Stack gap={0} data-testid={testId}>
        {changes.map((c, i) => (
          <Stack
            key={c.key}
            gap={4}
            py="sm"
            style={i > 0 ? { borderTop: '1px solid var(--mantine-color-default-border)' } : undefined}
            data-testid={`diff-${c.key}`}
          >
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm" fw={500}>
                {policyLabel(t, c.key)}
              </Text>
              <Badge size="sm" variant="light" color={KIND_COLOR[c.kind]} style={{ flexShrink: 0 }}>
                {t(`policy.diff.${c.kind}`)}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {t('policy.diff.before')}:{' '}
              <Text span inherit td={c.kind === 'added' ? undefined : 'line-through'}>
                {formatHistoryValue(t, c.key, c.before)}
              </Text>
            </Text>
            <Text size="sm">
              {t('policy.diff.after')}:{' '}
              <Text span inherit fw={c.kind === 'removed' ? undefined : 600}>
                {formatHistoryValue(t, c.key, c.after)}
              </Text>
            </Text>
          </Stack>
        ))}
      </Stack>
    );
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="sm" data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('policy.col.policy')}</Table.Th>
            <Table.Th>{t('policy.diff.before')}</Table.Th>
            <Table.Th>{t('policy.diff.after')}</Table.Th>
            <Table.Th w={110} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {changes.map((c) => (
            <Table.Tr key={c.key} data-testid={`diff-${c.key}`}>
              <Table.Td fw={500}>{policyLabel(t, c.key)}</Table.Td>
              <Table.Td c={c.kind === 'added' ? 'dimmed' : undefined}>
                <Text size="sm" td={c.kind === 'added' ? undefined : 'line-through'} c="dimmed">
                  {formatHistoryValue(t, c.key, c.before)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" fw={c.kind === 'removed' ? undefined : 600}>
                  {formatHistoryValue(t, c.key, c.after)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge size="sm" variant="light" color={KIND_COLOR[c.kind]}>
                  {t(`policy.diff.${c.kind}`)}
                </Badge>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
