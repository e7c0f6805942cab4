import type { ExportFormat } from '@latchkey/contracts/client';
import { Button, Menu, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-error.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { exportEvents, type Filters } from '../api.ts';

/** Export of the current filter, streamed from the Hub with its progress; the file is saved once complete. */
export function ExportMenu({ filters }: { filters: Filters }) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<{ rows: number; total: number } | null>(null);
  const run = async (format: ExportFormat) => {
    setProgress({ rows: 0, total: 0 });
    try {
      const done = await exportEvents(format, filters, (rows, total) => setProgress({ rows, total }));
      const url = URL.createObjectURL(done.blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = done.filename;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      notifications.show({ color: 'teal', message: t('eventlogs.export.done', { n: formatNumber(done.rows) }) });
    } catch (error) {
      notifications.show({ color: 'red', message: t(errorMessage(error)) });
    } finally {
      setProgress(null);
    }
  };
  if (progress)
    return (
      <Stack gap={4} w={{ base: '100%', xs: 260 }} data-testid="export-progress">
        <Text size="sm">
          {t('eventlogs.export.progress', { rows: formatNumber(progress.rows), total: formatNumber(progress.total) })}
        </Text>
        <Progress value={progress.total ? (100 * progress.rows) / progress.total : 0} animated />
      </Stack>
    );
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Button variant="default" size="sm" data-testid="export-button">
          {t('eventlogs.export.button')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => void run('csv')} data-testid="export-csv">
          {t('eventlogs.export.csv')}
        </Menu.Item>
        <Menu.Item onClick={() => void run('ndjson')} data-testid="export-ndjson">
          {t('eventlogs.export.ndjson')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
