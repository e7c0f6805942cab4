import { canAccess, RULES } from '@latchkey/contracts/client';
import { Alert, Badge, Button, Card, Checkbox, Menu, SegmentedControl, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'wouter';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { EmailAddress } from '../../components/EmailAddress.tsx';
import { ListToolbar } from '../../components/ListToolbar.tsx';
import { PageAction } from '../../components/PageHeader.tsx';
import { RowMenu } from '../../components/RowMenu.tsx';
import { errorMessage, errorValues } from '../../lib/api-error.ts';
import { useConsoleContext } from '../../lib/console-context.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useListState } from '../../lib/use-list-state.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import {
  type RecoveryRequestRow,
  useApproveRecoveryMutation,
  useDeleteRecoveryMutation,
  useRecoveryRequestsQuery,
  useRecoveryServiceMutation,
} from './api.ts';
import { linkIsLive, recoveryOffMode } from './rules.ts';

type StateFilter = 'all' | 'pending' | 'approved';
type Pending = { kind: 'approve' | 'delete'; request: RecoveryRequestRow };

/** Recovery: members' account recovery requests, approved or deleted by a recovery admin or the super admin. */
export function Recovery() {
  const { t } = useTranslation();
  const { ctx } = useConsoleContext();
  // The links show exactly when their routes' guards would let the admin in.
  const admins = canAccess(RULES.recoveryAdmins, ctx);
  const settings = canAccess(RULES.settingsRecovery, ctx);
  return (
    <Stack gap="md" data-testid="recovery">
      {/* Links to the screens below this one, styled as the page's actions (not as tabs: none is selected). */}
      <PageAction>
        {admins && (
          <Button component={Link} href="/recovery/admins" variant="default" size="sm">
            {t('page.recovery_admins')}
          </Button>
        )}
        {settings && (
          <Button component={Link} href="/settings/recovery" variant="default" size="sm">
            {t('page.recovery_settings')}
          </Button>
        )}
      </PageAction>
      {canAccess(RULES.recoveryRequests, ctx) ? (
        <RequestsTable />
      ) : (
        <RecoveryOff mode={recoveryOffMode(ctx)} canOpenIntegration={canAccess(RULES.integration, ctx)} />
      )}
    </Stack>
  );
}

function RecoveryOff({ mode, canOpenIntegration }: { mode: ReturnType<typeof recoveryOffMode>; canOpenIntegration: boolean }) {
  const { t } = useTranslation();
  const turnOn = useRecoveryServiceMutation();
  const canTurnOn = mode === 'turn_on';
  return (
    <Card withBorder padding="lg" data-testid="recovery-off" data-mode={mode}>
      <Stack gap="sm" align="flex-start">
        <Text fw={600}>{t('recovery.off.title')}</Text>
        <Text size="sm" c="dimmed">
          {t(`recovery.off.${mode === 'turn_on' ? 'body' : mode}`)}
        </Text>
        {turnOn.isError && <Alert color="red">{t(errorMessage(turnOn.error), errorValues(turnOn.error))}</Alert>}
        {canTurnOn && (
          <Button
            size="sm"
            loading={turnOn.isPending}
            onClick={() =>
              turnOn.mutate(true, { onSuccess: () => notifications.show({ color: 'teal', message: t('recovery.service.on') }) })
            }
          >
            {t('recovery.off.turn_on')}
          </Button>
        )}
        {mode === 'connect_hub' && canOpenIntegration && (
          <Button component={Link} href="/integration" size="sm" data-testid="recovery-off-integration">
            {t('recovery.off.open_integration')}
          </Button>
        )}
      </Stack>
    </Card>
  );
}

function RequestsTable() {
  const { t } = useTranslation();
  const [state, setState] = useState<StateFilter>('all');
  const { search, setSearch, term: debounced, page, setPage } = useListState();
  const [pending, setPending] = useState<Pending | null>(null);
  const list = useRecoveryRequestsQuery(page, state === 'all' ? undefined : state, debounced);
  const columns: Column<RecoveryRequestRow>[] = [
    {
      key: 'email',
      header: 'audit.col.member',
      cell: (r) => (
        <Text size="sm" fw={500}>
          <EmailAddress address={r.email} />
        </Text>
      ),
    },
    { key: 'requested', header: 'recovery.col.requested', nowrap: true, cell: (r) => formatDateTime(r.created_at) },
    {
      key: 'state',
      header: 'recovery.col.state',
      cell: (r) => (
        <Badge variant="light" miw="max-content" color={r.state === 'pending' ? 'yellow' : 'teal'}>
          {t(`recovery.state.${r.state}`)}
        </Badge>
      ),
    },
    {
      key: 'link',
      header: 'recovery.col.link',
      cell: (r) =>
        r.link_expires_at ? (
          <Text size="sm">
            {t(linkIsLive(r) ? 'recovery.link.valid_until' : 'recovery.link.expired', {
              date: formatDateTime(r.link_expires_at),
            })}
            {r.approved_by && (
              <Text span size="xs" c="dimmed" display="block">
                {t('recovery.approved_by', { email: r.approved_by })}
              </Text>
            )}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            –
          </Text>
        ),
    },
    {
      key: 'actions',
      header: 'table.actions',
      headerHidden: true,
      width: 48,
      cell: (r) => (
        <RowMenu label={t('members.actions_for', { email: r.email })}>
          {r.state === 'pending' && (
            <Menu.Item onClick={() => setPending({ kind: 'approve', request: r })}>{t('recovery.approve')}</Menu.Item>
          )}
          <Menu.Item color="red.9" onClick={() => setPending({ kind: 'delete', request: r })}>
            {t('recovery.delete')}
          </Menu.Item>
        </RowMenu>
      ),
    },
  ];
  return (
    <Stack gap="sm">
      <ListToolbar
        search={{
          value: search,
          onChange: (value) => {
            setSearch(value);
            // At once, not when the term settles: no page is asked for past the new term's end.
            setPage(1);
          },
          label: t('audit.search'),
        }}
        actions={
          <SegmentedControl
            size="sm"
            value={state}
            onChange={(v) => {
              setState(v as StateFilter);
              setPage(1);
            }}
            data={[
              { value: 'all', label: t('recovery.filter.all') },
              { value: 'pending', label: t('recovery.state.pending') },
              { value: 'approved', label: t('recovery.state.approved') },
            ]}
          />
        }
      />
      <DataTable
        columns={columns}
        rows={list.data?.results}
        rowKey={(r) => r.id}
        rowProps={(r) => ({ 'data-testid': 'recovery-row', 'data-email': r.email })}
        testId="recovery-table"
        minWidth={760}
        highlightOnHover={false}
        error={list.isError}
        onRetry={() => void list.refetch()}
        emptyTestId="recovery-empty"
        empty={
          <Text size="sm" c="dimmed">
            {debounced || state !== 'all' ? t('audit.no_match') : t('recovery.empty')}
          </Text>
        }
        pager={
          list.data && {
            page,
            pages: list.data.pages,
            total: list.data.total,
            shown: list.data.results.length,
            onPage: setPage,
          }
        }
      />
      {pending && <ConfirmRequest pending={pending} onClose={() => setPending(null)} />}
    </Stack>
  );
}

function ConfirmRequest({ pending, onClose }: { pending: Pending; onClose: () => void }) {
  const { t } = useTranslation();
  const approve = useApproveRecoveryMutation();
  const remove = useDeleteRecoveryMutation();
  const live = linkIsLive(pending.request);
  const [force, setForce] = useState(false);
  const action = pending.kind === 'approve' ? approve : remove;
  const email = pending.request.email;
  const run = () => {
    const done = () => {
      notifications.show({ color: 'teal', message: t(`recovery.done.${pending.kind}`, { email }) });
      onClose();
    };
    if (pending.kind === 'approve') approve.mutate({ emails: [email], state: 'approved' }, { onSuccess: done });
    else remove.mutate({ id: pending.request.id, force_delete: force }, { onSuccess: done });
  };
  return (
    <ConfirmDialog
      title={t(`recovery.confirm.${pending.kind}.title`)}
      action={t(`recovery.${pending.kind}`)}
      pending={action.isPending}
      error={action.error}
      onConfirm={run}
      onClose={onClose}
      color={pending.kind === 'delete' ? 'red' : null}
      confirmDisabled={pending.kind === 'delete' && live && !force}
    >
      <Text size="sm">{t(`recovery.confirm.${pending.kind}.body`, { email })}</Text>
      {pending.kind === 'delete' && live && (
        <Checkbox
          label={t('recovery.confirm.force')}
          checked={force}
          onChange={(e) => setForce(e.currentTarget.checked)}
          data-testid="force-delete"
        />
      )}
    </ConfirmDialog>
  );
}
