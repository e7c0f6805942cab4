import { Alert, Badge, Button, Card, Group, Modal, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { PageAction } from '../../components/PageHeader.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { usePolicyChangeQuery, useRestoreMutation } from './api.ts';
import { PolicyDiff } from './PolicyDiff.tsx';
import { useSaveToast } from './use-save-toast.ts';

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
            {entry.approved_by.length > 0 && (
              <Text size="sm" c="dimmed" data-testid="policy-change-approved-by">
                {t('policy.history.approved_by', { names: entry.approved_by.join(', ') })}
              </Text>
            )}
          </Stack>
          <PageAction>
            <Button onClick={() => setConfirming(true)} data-testid="policy-restore">
              {t('policy.restore')}
            </Button>
          </PageAction>
        </Group>
      </Card>
      <Card withBorder radius="md" padding={0}>
        <PolicyDiff changes={changes} />
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
