import { emailProblem } from '@latchkey/contracts/client';
import {
  Autocomplete,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ModalError } from '../../components/ModalError.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { formatDate } from '../../lib/format.ts';
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
import { EmptyRows, Pager, SkeletonRows } from './table.tsx';

const COLUMNS = 5;
type StateFilter = 'all' | 'active' | 'pending';

/** Recovery admins: the recovery group, added by request and approved by each member from their app. */
export function RecoveryAdmins() {
  const { t } = useTranslation();
  const [state, setState] = useState<StateFilter>('all');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<{ id: string; email: string } | null>(null);
  const list = useRecoveryAdminsQuery(page, state === 'all' ? undefined : state, debounced);
  return (
    <Stack gap="md" data-testid="recovery-admins">
      <WaitingRequests onWithdraw={setRemoving} />
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <TextInput
            placeholder={t('audit.search')}
            aria-label={t('audit.search')}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
            w={{ base: '100%', xs: 260 }}
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
              { value: 'active', label: t('recovery.admin.state.active') },
              { value: 'pending', label: t('recovery.admin.state.pending') },
            ]}
          />
        </Group>
        <Button size="sm" onClick={() => setAdding(true)} data-testid="recovery-admin-add">
          {t('recovery.admin.add')}
        </Button>
      </Group>
      {list.isError ? (
        <DataFetchError onRetry={() => void list.refetch()} />
      ) : (
        <div>
          <Table.ScrollContainer minWidth={680}>
            <Table verticalSpacing="sm" data-testid="recovery-admins-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('audit.col.member')}</Table.Th>
                  <Table.Th>{t('recovery.col.state')}</Table.Th>
                  <Table.Th>{t('recovery.admin.added')}</Table.Th>
                  <Table.Th>{t('recovery.admin.secret')}</Table.Th>
                  <Table.Th w={100}>
                    <span style={{ position: 'absolute', left: -9999 }}>{t('members.col.actions')}</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {!list.data ? (
                  <SkeletonRows columns={COLUMNS} />
                ) : list.data.results.length === 0 ? (
                  <EmptyRows columns={COLUMNS} testId="recovery-admins-empty">
                    <Text size="sm" c="dimmed">
                      {debounced || state !== 'all' ? t('audit.no_match') : t('recovery.admin.empty')}
                    </Text>
                    {!debounced && state === 'all' && (
                      <Button size="xs" variant="light" onClick={() => setAdding(true)}>
                        {t('recovery.admin.add')}
                      </Button>
                    )}
                  </EmptyRows>
                ) : (
                  list.data.results.map((a) => <AdminRow key={a.id} admin={a} onRemove={() => setRemoving(a)} />)
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {list.data && <Pager total={list.data.total} pages={list.data.pages} page={page} onPage={setPage} />}
        </div>
      )}
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
            <Text size="sm">{r.user.email}</Text>
            <Button size="xs" variant="subtle" color="gray" onClick={() => onWithdraw({ id: r.id, email: r.user.email })}>
              {t('recovery.admin.withdraw')}
            </Button>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

function AdminRow({ admin, onRemove }: { admin: RecoveryAdminRow; onRemove: () => void }) {
  const { t } = useTranslation();
  const verify = useSecretVerify();
  return (
    <Table.Tr data-testid="recovery-admin-row" data-email={admin.email}>
      <Table.Td>
        <Text size="sm" fw={500}>
          {admin.email}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" miw="max-content" color={admin.state === 'active' ? 'teal' : 'yellow'}>
          {t(`recovery.admin.state.${admin.state}`)}
        </Badge>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(admin.created_at)}</Table.Td>
      <Table.Td>
        {verify.data ? (
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
        )}
      </Table.Td>
      <Table.Td>
        <Button size="xs" variant="subtle" color="red" onClick={onRemove}>
          {t('recovery.admin.remove')}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

function AddRecoveryAdmin({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [debounced] = useDebouncedValue(email.trim(), 250);
  const suggestions = useMemberSuggestions(debounced);
  const keyCheck = useKeyVerify();
  const create = useCreateAdminRequestMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async () => {
    const value = email.trim().toLowerCase();
    const invalid = emailProblem(value);
    if (invalid) return setProblem(invalid);
    setProblem(null);
    // A recovery admin needs a device key to receive the recovery group secret.
    const [result] = (await keyCheck.mutateAsync([value])).results;
    if (!result?.verified) return setProblem('recovery.admin.no_key');
    create.mutate(
      { email: value, teamuser_id: value },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: t('recovery.admin.requested', { email: value }) });
          onClose();
        },
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('recovery.admin.add_title')} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md" data-testid="recovery-admin-dialog">
          <ModalError error={problem ?? keyCheck.error ?? create.error} />
          <Text size="sm" c="dimmed">
            {t('recovery.admin.add_hint')}
          </Text>
          <Autocomplete
            label={t('members.invite.email')}
            value={email}
            onChange={setEmail}
            data={suggestions.data ?? []}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={keyCheck.isPending || create.isPending} disabled={!email.trim()}>
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
