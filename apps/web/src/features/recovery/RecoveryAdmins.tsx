import { Email } from '@latchkey/contracts';
import { Autocomplete, Badge, Button, Card, Group, Menu, Modal, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { z } from 'zod';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { EmailAddress } from '../../components/EmailAddress.tsx';
import { ListToolbar } from '../../components/ListToolbar.tsx';
import { ModalError } from '../../components/ModalError.tsx';
import { PageAction } from '../../components/PageHeader.tsx';
import { RowMenu } from '../../components/RowMenu.tsx';
import { bySchema, fieldProps } from '../../lib/form.ts';
import { formatDate } from '../../lib/format.ts';
import { useListState } from '../../lib/use-list-state.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import {
  type RecoveryAdminRow,
  useAdminRequestsQuery,
  useCreateAdminRequestMutation,
  useKeyVerify,
  useMemberSuggestions,
  useRecoveryAdminsQuery,
  useRemoveRecoveryAdminMutation,
  useSecretVerify,
} from './api.ts';

type StateFilter = 'all' | 'active' | 'pending';

/** Recovery admins: the recovery group, added by request and approved by each member from their app. */
export function RecoveryAdmins() {
  const { t } = useTranslation();
  const [state, setState] = useState<StateFilter>('all');
  const { search, setSearch, term: debounced, page, setPage } = useListState();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<{ id: string; email: string } | null>(null);
  const list = useRecoveryAdminsQuery(page, state === 'all' ? undefined : state, debounced);
  const columns: Column<RecoveryAdminRow>[] = [
    {
      key: 'email',
      header: 'audit.col.member',
      cell: (a) => (
        <Text size="sm" fw={500}>
          <EmailAddress address={a.email} />
        </Text>
      ),
    },
    {
      key: 'state',
      header: 'recovery.col.state',
      cell: (a) => (
        <Badge variant="light" miw="max-content" color={a.state === 'active' ? 'teal' : 'yellow'}>
          {t(`recovery.admin.state.${a.state}`)}
        </Badge>
      ),
    },
    { key: 'added', header: 'recovery.admin.added', nowrap: true, cell: (a) => formatDate(a.created_at) },
    // Each row keeps its own verification result, so the cell is a component with its own mutation.
    { key: 'secret', header: 'recovery.admin.secret', cell: (a) => <SecretCheck admin={a} /> },
    {
      key: 'actions',
      header: 'table.actions',
      headerHidden: true,
      width: 48,
      cell: (a) => (
        <RowMenu label={t('members.actions_for', { email: a.email })}>
          <Menu.Item color="red.9" onClick={() => setRemoving(a)}>
            {t('recovery.admin.remove')}
          </Menu.Item>
        </RowMenu>
      ),
    },
  ];
  return (
    <Stack gap="md" data-testid="recovery-admins">
      <WaitingRequests onWithdraw={setRemoving} />
      <ListToolbar
        search={{
          value: search,
          onChange: (value) => {
            setSearch(value);
            // At once, not when the term settles: no page is asked for past the new term's end.
            setPage(1);
          },
          label: t('audit.search'),
          width: 260,
        }}
        filters={
          <SegmentedControl
            size="sm"
            value={state}
            onChange={(v) => {
              setState(v as StateFilter);
              setPage(1);
            }}
            data={[
              { value: 'all', label: t('recovery.filter.all') },
              { value: 'active', label: t('recovery.admin.state.active') },
              { value: 'pending', label: t('recovery.admin.state.pending') },
            ]}
          />
        }
      />
      <PageAction>
        <Button size="sm" onClick={() => setAdding(true)} data-testid="recovery-admin-add">
          {t('recovery.admin.add')}
        </Button>
      </PageAction>
      <DataTable
        columns={columns}
        rows={list.data?.results}
        rowKey={(a) => a.id}
        rowProps={(a) => ({ 'data-testid': 'recovery-admin-row', 'data-email': a.email })}
        testId="recovery-admins-table"
        minWidth={680}
        highlightOnHover={false}
        error={list.isError}
        onRetry={() => void list.refetch()}
        emptyTestId="recovery-admins-empty"
        empty={
          <>
            <Text size="sm" c="dimmed">
              {debounced || state !== 'all' ? t('audit.no_match') : t('recovery.admin.empty')}
            </Text>
            {!debounced && state === 'all' && (
              <Button size="xs" variant="light" onClick={() => setAdding(true)}>
                {t('recovery.admin.add')}
              </Button>
            )}
          </>
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
      {adding && <AddRecoveryAdmin onClose={() => setAdding(false)} />}
      {removing && <ConfirmRemove admin={removing} onClose={() => setRemoving(null)} />}
    </Stack>
  );
}

/** Requests the nominated members have not approved from their app yet. */
function WaitingRequests({ onWithdraw }: { onWithdraw: (a: { id: string; email: string }) => void }) {
  const { t } = useTranslation();
  const requests = useAdminRequestsQuery();
  if (!requests.data || requests.data.length === 0) return null;
  return (
    <Card withBorder padding="md" data-testid="admin-requests">
      <Title order={2} size="h5">
        {t('recovery.admin.waiting', { n: requests.data.length })}
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {t('recovery.admin.waiting_hint')}
      </Text>
      <Stack gap={6}>
        {requests.data.map((r) => (
          <Group key={r.id} justify="space-between" data-testid="admin-request" data-email={r.user.email}>
            <Text size="sm">
              <EmailAddress address={r.user.email} />
            </Text>
            <Button size="xs" variant="subtle" color="gray" onClick={() => onWithdraw({ id: r.id, email: r.user.email })}>
              {t('recovery.admin.withdraw')}
            </Button>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

function SecretCheck({ admin }: { admin: RecoveryAdminRow }) {
  const { t } = useTranslation();
  const verify = useSecretVerify();
  return verify.data ? (
    <Text size="sm" c={verify.data.verified ? 'teal' : 'red'} data-testid="secret-result">
      {t(verify.data.verified ? 'recovery.admin.secret_ok' : 'recovery.admin.secret_missing')}
    </Text>
  ) : (
    <Button
      size="xs"
      variant="default"
      loading={verify.isPending}
      onClick={() => verify.mutate({ email: admin.email, uid: admin.id })}
    >
      {t('recovery.admin.verify')}
    </Button>
  );
}

/** The nominee's address, checked by the contracts' Email schema before the Hub is asked. */
const NomineeForm = z.object({ email: Email });

function AddRecoveryAdmin({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const form = useForm({ initialValues: { email: '' }, validate: bySchema(NomineeForm), validateInputOnBlur: true });
  const [debounced] = useDebouncedValue(form.values.email.trim(), 250);
  const suggestions = useMemberSuggestions(debounced);
  const keyCheck = useKeyVerify();
  const create = useCreateAdminRequestMutation();
  const submit = form.onSubmit(async ({ email }) => {
    const value = email.trim().toLowerCase();
    // A recovery admin needs a device key to receive the recovery group secret.
    const [result] = (await keyCheck.mutateAsync([value])).results;
    if (!result?.verified) return form.setFieldError('email', 'recovery.admin.no_key');
    create.mutate(
      { email: value, teamuser_id: value },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: t('recovery.admin.requested', { email: value }) });
          onClose();
        },
      },
    );
  });
  return (
    <Modal opened onClose={onClose} title={t('recovery.admin.add_title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md" data-testid="recovery-admin-dialog">
          <ModalError error={keyCheck.error ?? create.error} />
          <Text size="sm" c="dimmed">
            {t('recovery.admin.add_hint')}
          </Text>
          <Autocomplete
            label={t('members.invite.email')}
            {...fieldProps(form, 'email', t)}
            data={suggestions.data ?? []}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={keyCheck.isPending || create.isPending} disabled={!form.values.email.trim()}>
              {t('recovery.admin.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function ConfirmRemove({ admin, onClose }: { admin: { id: string; email: string }; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useRemoveRecoveryAdminMutation();
  return (
    <ConfirmDialog
      title={t('recovery.admin.remove_title')}
      action={t('recovery.admin.remove')}
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() =>
        remove.mutate(
          { email: admin.email, uid: admin.id },
          {
            onSuccess: () => {
              notifications.show({ color: 'teal', message: t('recovery.admin.removed', { email: admin.email }) });
              onClose();
            },
          },
        )
      }
      onClose={onClose}
    >
      {t('recovery.admin.remove_body', { email: admin.email })}
    </ConfirmDialog>
  );
}
