import { Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { CARD_QUERY } from '../../components/DataTable.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { PolicyDiff } from '../policies/index.ts';
import { areaOf } from './actions.ts';
import type { ApprovalRequest } from './api.ts';

type T = ReturnType<typeof useTranslation>['t'];

/** A value of a request's field in words: On / Off, a number in the admin's language, a list. */
function say(t: T, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return t(value ? 'policy.value.on' : 'policy.value.off');
  if (typeof value === 'number') return formatNumber(value);
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map((v) => say(t, v)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A field's label: the console's words when it has them, else the field's name made readable. */
const fieldLabel = (t: T, key: string): string =>
  t(`approvals.field.${key}`, { defaultValue: key.replace(/[_.]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase()) });

/**
 * What a request would change: a policy's as the policy history's diff, any other action as its
 * fields before and after (or the fields it was asked with, when it changes nothing that exists).
 */
export function RequestChanges({ request }: { request: ApprovalRequest }) {
  const { t } = useTranslation();
  const stacked = useMediaQuery(CARD_QUERY, false, { getInitialValueInEffect: false });
  if (areaOf(request.action) === 'policies') return <PolicyDiff changes={request.changes} testId="approval-diff" />;
  const rows =
    request.changes.length > 0
      ? request.changes.map((c) => ({ key: c.key, before: c.before, after: c.after }))
      : Object.entries(request.payload).map(([key, after]) => ({ key, before: undefined, after }));
  if (rows.length === 0) return null;
  const withBefore = request.changes.length > 0;
  // On a phone each field is a short block instead of a table wider than the screen.
  if (stacked)
    return (
      <Stack gap="xs" data-testid="approval-diff">
        {rows.map((row) => (
          <Stack key={row.key} gap={2}>
            <Text size="sm" fw={500}>
              {fieldLabel(t, row.key)}
            </Text>
            {withBefore && (
              <Text size="sm" c="dimmed" td="line-through" style={{ overflowWrap: 'anywhere' }}>
                {say(t, row.before)}
              </Text>
            )}
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {say(t, row.after)}
            </Text>
          </Stack>
        ))}
      </Stack>
    );
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table verticalSpacing="xs" data-testid="approval-diff">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('approvals.col.field')}</Table.Th>
            {withBefore && <Table.Th>{t('policy.diff.before')}</Table.Th>}
            <Table.Th>{t(withBefore ? 'policy.diff.after' : 'approvals.col.value')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.key}>
              <Table.Td fw={500}>{fieldLabel(t, row.key)}</Table.Td>
              {withBefore && (
                <Table.Td>
                  <Text size="sm" c="dimmed" td="line-through">
                    {say(t, row.before)}
                  </Text>
                </Table.Td>
              )}
              <Table.Td>
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {say(t, row.after)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
