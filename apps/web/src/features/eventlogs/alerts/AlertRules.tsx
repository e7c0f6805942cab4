import { Alert, Button, Group, Menu, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useSearch } from 'wouter';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { type Column, DataTable } from '../../../components/DataTable.tsx';
import { PageAction } from '../../../components/PageHeader.tsx';
import { RowMenu } from '../../../components/RowMenu.tsx';
import { errorMessage, errorValues } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { addressHasFilters, readAddress } from '../log/address.ts';
import { AlertHistory } from './AlertHistory.tsx';
import { AlertRuleForm, type RuleFilters } from './AlertRuleForm.tsx';
import { AlertTemplates } from './AlertTemplates.tsx';
import { conditionText, destinationText } from './alert-text.ts';
import { type AlertRule, useAlertRulesQuery, useDeleteAlertRule, useEnableAlertRule, useTestAlertRule } from './alerts-api.ts';

const PAGE_SIZE = 20;

/** Alert rules: the built-in templates to switch on, the team's rules, their form and their history. */
export function AlertRules() {
  const { t } = useTranslation();
  const list = useAlertRulesQuery();
  // Opened from the event log, the address carries its search: a new rule starts from it.
  const query = useSearch();
  const [fromLog] = useState(() => readAddress(query));
  const start: RuleFilters = {
    activities: fromLog.picked.activities,
    actors: fromLog.picked.actors,
    components: fromLog.picked.components,
    ip_addresses: fromLog.picked.ips,
    search_value: fromLog.search,
  };
  const [editing, setEditing] = useState<AlertRule | 'new' | null>(null);
  const [history, setHistory] = useState<AlertRule | null>(null);
  const [deleting, setDeleting] = useState<AlertRule | null>(null);
  const [page, setPage] = useState(1);
  const enable = useEnableAlertRule();
  const test = useTestAlertRule();
  const remove = useDeleteAlertRule();
  const rules = list.data?.rules;
  /** A switch or a test alert the Hub refused: said where the admin looks, the row stays as it was. */
  const failed = (error: unknown) => notifications.show({ color: 'red', message: t(errorMessage(error), errorValues(error)) });

  const columns: Column<AlertRule>[] = [
    {
      key: 'name',
      header: 'alerts.form.name',
      primary: true,
      maxWidth: 260,
      cell: (r) => (
        <Text fw={600} size="sm">
          {r.name}
        </Text>
      ),
    },
    { key: 'condition', header: 'alerts.col.condition', cell: (r) => conditionText(t, r.condition) },
    {
      key: 'destinations',
      header: 'alerts.col.destinations',
      maxWidth: 260,
      cell: (r) => r.destinations.map((d) => destinationText(t, d)).join(' · '),
    },
    {
      key: 'enabled',
      header: 'alerts.col.enabled',
      cell: (r) => (
        <Switch
          checked={r.enabled}
          aria-label={t('alerts.switch_label', { name: r.name })}
          onChange={(e) => enable.mutate({ id: r.id, enabled: e.currentTarget.checked }, { onError: failed })}
          data-testid="alert-rule-enabled"
        />
      ),
    },
    {
      key: 'last_fired',
      header: 'alerts.col.last_fired',
      nowrap: true,
      cell: (r) => (r.last_fired_at ? formatDateTime(r.last_fired_at) : t('alerts.never')),
    },
    {
      key: 'actions',
      header: 'table.actions',
      headerHidden: true,
      align: 'right',
      cell: (r) => (
        <RowMenu label={t('alerts.row_menu', { name: r.name })} testId="alert-rule-menu">
          <Menu.Item onClick={() => setEditing(r)} data-testid="alert-rule-edit">
            {t('alerts.edit')}
          </Menu.Item>
          <Menu.Item
            onClick={() =>
              test.mutate(
                { id: r.id },
                {
                  onSuccess: () => notifications.show({ color: 'teal', message: t('alerts.test_sent', { name: r.name }) }),
                  onError: failed,
                },
              )
            }
            data-testid="alert-rule-test"
          >
            {t('alerts.send_test')}
          </Menu.Item>
          <Menu.Item onClick={() => setHistory(r)} data-testid="alert-rule-history">
            {t('alerts.history.open')}
          </Menu.Item>
          <Menu.Item color="red.9" onClick={() => setDeleting(r)} data-testid="alert-rule-delete">
            {t('alerts.delete')}
          </Menu.Item>
        </RowMenu>
      ),
    },
  ];
  const shown = rules?.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return (
    <Stack gap="lg" data-testid="alert-rules">
      <PageAction>
        <Button size="sm" onClick={() => setEditing('new')} data-testid="alert-rule-new">
          {t('alerts.new')}
        </Button>
      </PageAction>
      {addressHasFilters(fromLog) && (
        <Alert color="blue" data-testid="alert-from-log">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{t('alerts.from_log')}</Text>
            <Button size="xs" variant="light" onClick={() => setEditing('new')}>
              {t('alerts.from_log_action')}
            </Button>
          </Group>
        </Alert>
      )}
      {/* With no rule yet the templates lead (the empty list points up to them); then the rules do. */}
      {list.data && !rules?.length ? <AlertTemplates keys={list.data.templates} /> : null}
      <Stack gap="sm">
        <Text fw={600}>{t('alerts.rules_title')}</Text>
        <DataTable
          columns={columns}
          rows={shown}
          rowKey={(r) => r.id}
          rowProps={(r) => ({ 'data-testid': 'alert-rule-row', 'data-name': r.name, 'data-template': r.template ?? '' })}
          testId="alert-rules-table"
          minWidth={720}
          skeletonRows={3}
          highlightOnHover={false}
          error={list.isError}
          onRetry={() => void list.refetch()}
          emptyTestId="alert-rules-empty"
          empty={<Text c="dimmed">{t('alerts.empty')}</Text>}
          pager={
            rules && rules.length > PAGE_SIZE
              ? {
                  page,
                  pages: Math.ceil(rules.length / PAGE_SIZE),
                  total: rules.length,
                  shown: shown?.length ?? 0,
                  onPage: setPage,
                }
              : undefined
          }
        />
      </Stack>
      {list.data && rules?.length ? <AlertTemplates keys={list.data.templates} /> : null}
      {editing && <AlertRuleForm rule={editing === 'new' ? null : editing} start={start} onClose={() => setEditing(null)} />}
      {history && <AlertHistory rule={history} onClose={() => setHistory(null)} />}
      {deleting && (
        <ConfirmDialog
          title={t('alerts.delete_title')}
          action={t('alerts.delete')}
          pending={remove.isPending}
          error={remove.error}
          onConfirm={() =>
            remove.mutate(
              { id: deleting.id },
              {
                onSuccess: () => {
                  notifications.show({ color: 'teal', message: t('alerts.deleted', { name: deleting.name }) });
                  setDeleting(null);
                },
              },
            )
          }
          onClose={() => setDeleting(null)}
        >
          {t('alerts.delete_question', { name: deleting.name })}
        </ConfirmDialog>
      )}
    </Stack>
  );
}
