import { Alert, Badge, Button, Card, Group, Modal, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { PageAction } from '../../components/PageHeader.tsx';
import { ScrollCue } from '../../components/ScrollCue.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { usePolicyChangeQuery, useRestoreMutation } from './api.ts';
import { formatHistoryValue, policyLabel } from './format.ts';
import { useSaveToast } from './use-save-toast.ts';

const KIND_COLOR = { added: 'green', removed: 'red', changed: 'blue' } as const;

/** /policies/history/{historyId}: who changed what, a readable diff per key, and restore. */
export function PolicyChange() {
  const { t } = useTranslation();
  const { historyId = '' } = useParams<{ historyId: string }>();
  const query = usePolicyChangeQuery(historyId);
  const [confirming, setConfirming] = useState(false);
  const restore = useRestoreMutation();
  const toast = useSaveToast();
  const [, navigate] = useLocation();

  if (query.isError) return <DataFetchError onRetry={() => void query.refetch()} />;
  if (query.isPending) {
    return (
      <Stack gap="md" aria-busy="true">
        <Skeleton h={90} radius="md" />
        <Skeleton h={220} radius="md" />
      </Stack>
    );
  }
  const { entry, changes } = query.data;
  const scope = entry.scope === 'team' ? t('policy.history.team') : t('policy.history.group', { name: entry.group_name });

  const doRestore = async () => {
    if (await toast(() => restore.mutateAsync(entry.id))) {
      setConfirming(false);
      navigate('/policies/history');
    }
  };

  return (
    <Stack gap="md" data-testid="policy-change">
      <Card withBorder radius="md" padding="lg">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
          <Stack gap={4}>
            <Group gap="xs">
              <Text fw={600}>{scope}</Text>
              {entry.action === 'restore' && (
                <Badge size="sm" variant="light" color="teal">
                  {t('policy.history.restored')}
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed">
              {t('policy.history.by', { who: entry.actor_email, when: formatDateTime(entry.created_at) })}
            </Text>
          </Stack>
          <PageAction>
            <Button onClick={() => setConfirming(true)} data-testid="policy-restore">
              {t('policy.restore')}
            </Button>
          </PageAction>
        </Group>
      </Card>
      <Card withBorder radius="md" padding={0}>
        {changes.length === 0 ? (
          <Text ta="center" c="dimmed" py="xl">
            {t('policy.history.no_change')}
          </Text>
        ) : (
          <ScrollCue>
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="sm" data-testid="policy-diff">
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
          </ScrollCue>
        )}
      </Card>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('policy.restore.title')} centered>
        <Stack gap="md">
          <Text size="sm">{t('policy.restore.body', { scope })}</Text>
          {entry.scope === 'group' && (
            <Alert color="gray" variant="light">
              {t('policy.restore.group_note')}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button onClick={doRestore} loading={restore.isPending} data-testid="policy-restore-confirm">
              {t('policy.restore')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
