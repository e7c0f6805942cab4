import { Button, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from '../../lib/use-translation.ts';

interface SaveBarProps {
  dirty: boolean;
  hasErrors: boolean;
  saving: boolean;
  impact: { affected_members: number; total_members: number } | undefined;
  impactLoading: boolean;
  onSave: () => void;
  onDiscard: () => void;
}

/** Save and discard, kept in view, with the server's impact preview of the unsaved change. */
export function SaveBar({ dirty, hasErrors, saving, impact, impactLoading, onSave, onDiscard }: SaveBarProps) {
  const { t } = useTranslation();
  let status: React.ReactNode;
  if (hasErrors)
    status = (
      <Text c="red" size="sm">
        {t('policy.fix_errors')}
      </Text>
    );
  else if (!dirty)
    status = (
      <Text c="dimmed" size="sm">
        {t('policy.no_changes')}
      </Text>
    );
  else if (impactLoading || !impact)
    status = (
      <Text c="dimmed" size="sm">
        {t('policy.impact.checking')}
      </Text>
    );
  else
    status = (
      <Text size="sm" data-testid="policy-impact">
        {t('policy.impact.affected', { count: impact.affected_members, total: impact.total_members })}
      </Text>
    );
  return (
    <Paper
      withBorder
      shadow="sm"
      p="sm"
      radius="md"
      style={{ position: 'sticky', bottom: 12, zIndex: 5 }}
      data-testid="policy-save-bar"
    >
      <Group justify="space-between" wrap="wrap" gap="sm">
        <div aria-live="polite">{status}</div>
        <Group gap="sm">
          <Button variant="default" onClick={onDiscard} disabled={!dirty || saving}>
            {t('unsaved.discard')}
          </Button>
          <Button onClick={onSave} disabled={!dirty || hasErrors} loading={saving} data-testid="policy-save">
            {t('common.save')}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
