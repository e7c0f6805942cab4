import type { DirectoryConnection, DirectoryRun } from '@latchkey/contracts/client';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ModalError } from '../../../components/ModalError.tsx';
import { SectionCard } from '../../../components/SectionCard.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useDirectoryAction } from '../api.ts';
import { PlanSummary } from './plan-summary.tsx';

/**
 * Sync: a preview first (nothing changes until it is applied); once one was applied, "Sync now" and
 * the schedule apply what they find.
 */
export function SyncCard({ connection, runs }: { connection: DirectoryConnection; runs: readonly DirectoryRun[] }) {
  const { t } = useTranslation();
  const action = useDirectoryAction();
  const [latest] = runs;
  const preview = latest?.outcome === 'previewed' ? latest : null;
  const busy = action.isPending;
  const done = (run: DirectoryRun | null) => {
    if (run && run.outcome !== 'previewed') notifications.show({ color: 'teal', message: t(`directory.outcome.${run.outcome}`) });
  };
  return (
    <SectionCard title={t('directory.sync')} testId="directory-sync-card">
      <Stack gap="xs">
        <Text size="sm" data-testid="directory-last-sync">
          {connection.applied_at
            ? t('directory.last_sync', { when: formatDateTime(connection.applied_at) })
            : t('directory.never_synced')}
        </Text>
        {connection.next_run_at && (
          <Text size="sm" c="dimmed">
            {t('directory.next_sync', { when: formatDateTime(connection.next_run_at) })}
          </Text>
        )}
      </Stack>
      <ModalError error={action.variables?.kind === 'save' || action.variables?.kind === 'delete' ? null : action.error} />
      {preview && (
        <Alert
          color="blue"
          title={t('directory.preview_title', { when: formatDateTime(preview.started_at) })}
          data-testid="directory-preview"
        >
          <Stack gap="md">
            <PlanSummary run={preview} />
            <Group justify="flex-end">
              <Button
                loading={busy && action.variables?.kind === 'apply'}
                onClick={() => action.mutate({ kind: 'apply', runId: preview.id }, { onSuccess: done })}
                data-testid="directory-apply"
              >
                {t('directory.apply')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      <Group justify="flex-end" gap="sm">
        <Button
          variant="default"
          loading={busy && action.variables?.kind === 'preview'}
          onClick={() => action.mutate({ kind: 'preview' })}
          data-testid="directory-preview-run"
        >
          {t('directory.preview')}
        </Button>
        <Button
          disabled={!connection.applied_at}
          title={connection.applied_at ? undefined : t('directory.preview_first')}
          loading={busy && action.variables?.kind === 'sync'}
          onClick={() => action.mutate({ kind: 'sync' }, { onSuccess: done })}
          data-testid="directory-sync-now"
        >
          {t('directory.sync_now')}
        </Button>
      </Group>
    </SectionCard>
  );
}
