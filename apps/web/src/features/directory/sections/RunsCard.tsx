import { DIRECTORY_CHANGE_KINDS, type DirectoryRun } from '@latchkey/contracts/client';
import { Badge, Text } from '@mantine/core';
import { type Column, DataTable } from '../../../components/DataTable.tsx';
import { SectionCard } from '../../../components/SectionCard.tsx';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';

const OUTCOME_COLOR: Record<DirectoryRun['outcome'], string> = {
  running: 'blue',
  previewed: 'gray',
  applied: 'teal',
  unchanged: 'gray',
  failed: 'red',
};

/** Every run: when, what started it, who, how it ended, what it changed, and why it failed in words. */
export function RunsCard({ runs }: { runs: readonly DirectoryRun[] | undefined }) {
  const { t } = useTranslation();
  const changes = (run: DirectoryRun) =>
    DIRECTORY_CHANGE_KINDS.filter((kind) => (run.counts[kind] ?? 0) > 0)
      .map((kind) => `${t(`directory.plan.${kind}`)}: ${formatNumber(run.counts[kind] ?? 0)}`)
      .join(' · ');
  const columns: Column<DirectoryRun>[] = [
    { key: 'when', header: t('policy.history.when'), cell: (r) => formatDateTime(r.started_at), nowrap: true, primary: true },
    { key: 'trigger', header: t('directory.run.trigger'), cell: (r) => t(`directory.trigger.${r.trigger}`) },
    { key: 'actor', header: t('eventlogs.col.actor'), cell: (r) => r.actor, nowrap: true },
    {
      key: 'outcome',
      header: t('eventlogs.col.outcome'),
      cell: (r) => (
        // Wraps rather than cutting the label short ("Änderungen übernommen" is longer than "Changes applied").
        <Badge
          variant="light"
          color={OUTCOME_COLOR[r.outcome]}
          h="auto"
          styles={{ label: { overflow: 'visible', whiteSpace: 'normal' } }}
        >
          {t(`directory.outcome.${r.outcome}`)}
        </Badge>
      ),
    },
    {
      key: 'detail',
      header: t('directory.run.detail'),
      cell: (r) => (
        <Text size="sm" c={r.error_message ? 'red' : undefined} style={{ overflowWrap: 'anywhere' }}>
          {r.error_message ?? (changes(r) || '—')}
        </Text>
      ),
    },
  ];
  return (
    <SectionCard title={t('directory.runs')} testId="directory-runs">
      <DataTable
        columns={columns}
        rows={runs}
        rowKey={(r) => r.id}
        rowProps={(r) => ({ 'data-testid': 'directory-run', 'data-outcome': r.outcome })}
        testId="directory-runs-table"
        minWidth={640}
        skeletonRows={2}
        emptyTestId="directory-runs-empty"
        empty={<Text c="dimmed">{t('directory.runs_empty')}</Text>}
      />
    </SectionCard>
  );
}
