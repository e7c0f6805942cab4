import { Email } from '@latchkey/contracts';
import { SCOPES, type Scope } from '@latchkey/contracts/client';
import { Badge, Button, Checkbox, Group, Menu, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { z } from 'zod';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { type Column, DataTable, RowMenu } from '../../components/DataTable.tsx';
import { EmailAddress } from '../../components/EmailAddress.tsx';
import { ListToolbar } from '../../components/ListToolbar.tsx';
import { ModalError } from '../../components/ModalError.tsx';
import { PageAction } from '../../components/PageHeader.tsx';
import { bySchema, fieldProps } from '../../lib/form.ts';
import { formatNumber } from '../../lib/format.ts';
import { EMAIL_MAX, limitProps, trimPasted } from '../../lib/limits.ts';
import { useSession } from '../../lib/session.ts';
import { useListState } from '../../lib/use-list-state.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { AdminScopes } from './AdminScopes.tsx';
import {
  type Admin,
  type AdminChange,
  useAddAdminMutation,
  useAdminChangeMutation,
  useAdminsQuery,
  useMyElevationsQuery,
} from './api.ts';
import { DecideElevation, type Deciding } from './DecideElevation.tsx';
import { EligibilityDialog } from './EligibilityDialog.tsx';
import { JitSettingsCard } from './JitSettingsCard.tsx';

type Pending = AdminChange;

/** Settings → administrators: list, add with scopes, remove, reset authentication (super admin only). */
export function Administrators() {
  const { t } = useTranslation();
  const me = useSession()?.email ?? '';
  const { search, setSearch, term } = useListState();
  const [adding, setAdding] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const list = useAdminsQuery(term);
  const jit = useMyElevationsQuery().data?.settings.enabled ?? false;
  const [eligibility, setEligibility] = useState<Admin | null>(null);
  const [deciding, setDeciding] = useState<Deciding | null>(null);
  const columns: Column<Admin>[] = [
    {
      key: 'member',
      header: 'members.col.member',
      cell: (a) => (
        <>
          <Group gap={6}>
            <Text size="sm" fw={500}>
              {a.name || <EmailAddress address={a.email} />}
            </Text>
            {a.status === 'pending' && (
              <Badge variant="outline" color="yellow" size="sm" data-testid="admin-pending">
                {t('admins.status.pending')}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            <EmailAddress address={a.email} />
          </Text>
        </>
      ),
    },
    {
      key: 'scopes',
      header: 'admins.scopes',
      cell: (a) => <AdminScopes admin={a} />,
    },
    {
      key: 'actions',
      header: 'table.actions',
      headerHidden: true,
      width: 48,
      cell: (a) => (
        <RowMenu label={t('members.actions_for', { email: a.email })}>
          {a.status === 'pending' ? (
            <Menu.Item color="red.9" onClick={() => setPending({ kind: 'cancel', email: a.email, scopes: a.scopes })}>
              {t('admins.cancel_invitation')}
            </Menu.Item>
          ) : (
            <>
              {jit && (
                <Menu.Item onClick={() => setEligibility(a)} data-testid="admin-eligibility-open">
                  {t('admins.jit.eligibility')}
                </Menu.Item>
              )}
              {a.email !== me &&
                (a.elevations ?? [])
                  .filter((e) => e.status === 'pending' && e.request_id)
                  .map((e) => (
                    <Menu.Item
                      key={e.id}
                      onClick={() => setDeciding({ admin: a, elevation: e })}
                      data-testid="admin-elevation-decide"
                    >
                      {t('admins.jit.decide', { scope: t(`admins.scope.${e.scope}`) })}
                    </Menu.Item>
                  ))}
              {a.email !== me && (
                <Menu.Item onClick={() => setPending({ kind: 'reset', email: a.email, scopes: a.scopes })}>
                  {t('admins.reset')}
                </Menu.Item>
              )}
              <Menu.Item color="red.9" onClick={() => setPending({ kind: 'remove', email: a.email, scopes: a.scopes })}>
                {t('admins.remove')}
              </Menu.Item>
            </>
          )}
        </RowMenu>
      ),
    },
  ];
  return (
    <Stack gap="md" data-testid="administrators">
      <JitSettingsCard />
      <ListToolbar
        search={{ value: search, onChange: setSearch, label: t('admins.search') }}
        actions={
          list.data && (
            <Text size="sm" c="dimmed" data-testid="admins-count">
              {t('admins.count', { n: formatNumber(list.data.total), seats: formatNumber(list.data.total_rounded) })}
            </Text>
          )
        }
      />
      <PageAction>
        <Button size="sm" onClick={() => setAdding(true)} data-testid="admin-add-open">
          {t('admins.add')}
        </Button>
      </PageAction>
      <DataTable
        columns={columns}
        rows={list.data?.admins}
        rowKey={(a) => a.email}
        rowProps={(a) => ({ 'data-testid': 'admin-row', 'data-email': a.email, 'data-status': a.status })}
        testId="admins-table"
        minWidth={560}
        skeletonRows={3}
        highlightOnHover={false}
        error={list.isError}
        onRetry={() => void list.refetch()}
        emptyTestId="admins-empty"
        empty={<Text c="dimmed">{t('members.no_match')}</Text>}
      />
      {adding && <AddAdmin onClose={() => setAdding(false)} />}
      {eligibility && <EligibilityDialog admin={eligibility} onClose={() => setEligibility(null)} />}
      {deciding && <DecideElevation {...deciding} onClose={() => setDeciding(null)} />}
      {pending && <ConfirmAdmin pending={pending} onClose={() => setPending(null)} />}
    </Stack>
  );
}

/** What adding an administrator sends, checked here by the same schemas the server uses. */
const AddAdminForm = z.object({ email: Email, scopes: z.array(z.enum(SCOPES)).min(1, 'admins.scope_required') });

function AddAdmin({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { email: '', scopes: ['admin'] as Scope[] },
    validate: bySchema(AddAdminForm),
    validateInputOnBlur: true,
  });
  const add = useAddAdminMutation();
  const submit = form.onSubmit((values) =>
    add.mutate(values, {
      onSuccess: (reply) => {
        const key = reply.code === 'invited' ? 'admins.invited' : 'admins.added';
        notifications.show({ color: 'teal', message: t(key, { email: values.email.trim() }) });
        onClose();
      },
    }),
  );
  return (
    <Modal opened onClose={onClose} title={t('admins.add_title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md" data-testid="admin-add-dialog">
          <ModalError error={add.error} />
          <TextInput
            {...limitProps(EMAIL_MAX, trimPasted)}
            label={t('members.invite.email')}
            {...fieldProps(form, 'email', t)}
            data-autofocus
          />
          <Checkbox.Group label={t('admins.scopes')} {...fieldProps(form, 'scopes', t)}>
            <Stack gap={6} mt={6}>
              {SCOPES.map((s) => (
                <Checkbox key={s} value={s} label={t(`admins.scope.${s}`)} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={add.isPending} disabled={!form.values.email.trim() || form.values.scopes.length === 0}>
              {t('admins.add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function ConfirmAdmin({ pending, onClose }: { pending: Pending; onClose: () => void }) {
  const { t } = useTranslation();
  const action = useAdminChangeMutation();
  return (
    <ConfirmDialog
      title={t(`admins.confirm.${pending.kind}.title`)}
      action={t({ remove: 'admins.remove', reset: 'admins.reset', cancel: 'admins.cancel_invitation' }[pending.kind])}
      pending={action.isPending}
      error={action.error}
      onConfirm={() =>
        action.mutate(pending, {
          onSuccess: () => {
            notifications.show({ color: 'teal', message: t(`admins.done.${pending.kind}`, { email: pending.email }) });
            onClose();
          },
        })
      }
      onClose={onClose}
    >
      {t(`admins.confirm.${pending.kind}.body`, { email: pending.email })}
    </ConfirmDialog>
  );
}
