import { Alert, Badge, Button, Card, Checkbox, Group, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'wouter';
import { useConsoleContext } from '../../app/layout/console-context.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { errorMessage, errorValues } from '../../lib/api-error.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import {
  type RecoveryRequestRow,
  useApproveRecoveryMutation,
  useDeleteRecoveryMutation,
  useRecoveryRequestsQuery,
  useRecoveryServiceMutation,
} from './api.ts';
import { linkIsLive } from './rules.ts';
import { EmptyRows, Pager, SkeletonRows } from './table.tsx';

const COLUMNS = 5;
type StateFilter = 'all' | 'pending' | 'approved';
type Pending = { kind: 'approve' | 'delete'; request: RecoveryRequestRow };

/** Recovery: members' account recovery requests, approved or deleted by a recovery admin or the super admin. */
export function Recovery() {
  const { t } = useTranslation();
  const { ctx } = useConsoleContext();
  const superAdmin = ctx.scopes.includes('super_admin');
  const on = ctx.hubEnabled && Boolean(ctx.services.recovery?.enabled);
  return (
    <Stack gap="md" data-testid="recovery">
      {superAdmin && on && (
        <Group gap="sm">
          <Button component={Link} href="/recovery/admins" variant="light" size="sm">
            {t('page.recovery_admins')}
          </Button>
          <Button component={Link} href="/settings/recovery" variant="default" size="sm">
            {t('page.recovery_settings')}
          </Button>
        </Group>
      )}
      {on ? <RequestsTable /> : <RecoveryOff canTurnOn={superAdmin && ctx.hubEnabled} />}
    </Stack>
  );
}

function RecoveryOff({ canTurnOn }: { canTurnOn: boolean }) {
  const { t } = useTranslation();
  const turnOn = useRecoveryServiceMutation();
  return (
    <Card withBorder padding="lg" data-testid="recovery-off">
      <Stack gap="sm" align="flex-start">
        <Text fw={600}>{t('recovery.off.title')}</Text>
        <Text size="sm" c="dimmed">
          {t(canTurnOn ? 'recovery.off.body' : 'recovery.off.ask')}
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
      </Stack>
    </Card>
  );
}

function RequestsTable() {
  const { t } = useTranslation();
  const [state, setState] = useState<StateFilter>('all');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [pending, setPending] = useState<Pending | null>(null);
  const list = useRecoveryRequestsQuery(page, state === 'all' ? undefined : state, debounced);
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <TextInput
          placeholder={t('audit.search')}
          aria-label={t('audit.search')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          w={{ base: '100%', xs: 280 }}
          size="sm"
        />
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
      </Group>
      {list.isError ? (
        <DataFetchError onRetry={() => void list.refetch()} />
      ) : (
        <div>
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing="sm" data-testid="recovery-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('audit.col.member')}</Table.Th>
                  <Table.Th>{t('recovery.col.requested')}</Table.Th>
                  <Table.Th>{t('recovery.col.state')}</Table.Th>
                  <Table.Th>{t('recovery.col.link')}</Table.Th>
                  <Table.Th w={190}>
                    <span style={{ position: 'absolute', left: -9999 }}>{t('members.col.actions')}</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {!list.data ? (
                  <SkeletonRows columns={COLUMNS} />
                ) : list.data.results.length === 0 ? (
                  <EmptyRows columns={COLUMNS} testId="recovery-empty">
                    <Text size="sm" c="dimmed">
                      {debounced || state !== 'all' ? t('audit.no_match') : t('recovery.empty')}
                    </Text>
                  </EmptyRows>
                ) : (
                  list.data.results.map((r) => (
                    <Table.Tr key={r.id} data-testid="recovery-row" data-email={r.email}>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {r.email}
                        </Text>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.created_at)}</Table.Td>
                      <Table.Td>
                        <Badge variant="light" miw="max-content" color={r.state === 'pending' ? 'yellow' : 'teal'}>
                          {t(`recovery.state.${r.state}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        {r.link_expires_at ? (
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
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap" justify="flex-end">
                          {r.state === 'pending' && (
                            <Button size="xs" variant="light" onClick={() => setPending({ kind: 'approve', request: r })}>
                              {t('recovery.approve')}
                            </Button>
                          )}
                          <Button
                            size="xs"
                            variant="subtle"
                            color="red"
                            onClick={() => setPending({ kind: 'delete', request: r })}
                          >
                            {t('recovery.delete')}
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {list.data && <Pager total={list.data.total} pages={list.data.pages} page={page} onPage={setPage} />}
        </div>
      )}
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
