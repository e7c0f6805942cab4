import { SCOPES, type Scope } from '@latchkey/contracts/client';
import { ActionIcon, Badge, Button, Checkbox, Group, Menu, Modal, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ModalError } from '../../components/ModalError.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { call } from '../../lib/api.ts';
import { formatNumber } from '../../lib/format.ts';
import { useSession } from '../../lib/session.ts';
import { useTranslation } from '../../lib/use-translation.ts';

const adminKeys = {
  all: (team: string) => ['admins', team] as const,
  list: (team: string, search: string) => [...adminKeys.all(team), search] as const,
};

type Pending = { kind: 'remove' | 'reset'; email: string; scopes: Scope[] };

/** Settings → administrators: list, add with scopes, remove, reset authentication (super admin only). */
export function Administrators() {
  const { t } = useTranslation();
  const team = useSession()?.team_slug ?? '';
  const me = useSession()?.email ?? '';
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [adding, setAdding] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const list = useQuery({
    queryKey: adminKeys.list(team, debounced),
    queryFn: () => call('adminMembers', debounced ? { search_value: debounced } : {}),
  });
  return (
    <Stack gap="md" data-testid="administrators">
      <Group justify="space-between" gap="sm">
        <TextInput
          placeholder={t('admins.search')}
          aria-label={t('admins.search')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={{ base: '100%', xs: 280 }}
          size="sm"
        />
        <Group gap="sm">
          {list.data && (
            <Text size="sm" c="dimmed" data-testid="admins-count">
              {t('admins.count', { n: formatNumber(list.data.total), seats: formatNumber(list.data.total_rounded) })}
            </Text>
          )}
          <Button size="sm" onClick={() => setAdding(true)} data-testid="admin-add-open">
            {t('admins.add')}
          </Button>
        </Group>
      </Group>
      {list.isError ? (
        <DataFetchError onRetry={() => void list.refetch()} />
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="sm" data-testid="admins-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('members.col.member')}</Table.Th>
                <Table.Th>{t('admins.scopes')}</Table.Th>
                <Table.Th w={48}>
                  <span style={{ position: 'absolute', left: -9999 }}>{t('members.col.actions')}</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {!list.data
                ? [1, 2, 3].map((n) => (
                    <Table.Tr key={n}>
                      {[1, 2, 3].map((c) => (
                        <Table.Td key={c}>
                          <Skeleton h={16} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                : list.data.admins.map((a) => (
                    <Table.Tr key={a.email} data-testid="admin-row" data-email={a.email}>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {a.name || a.email}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {a.email}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={6}>
                          {a.scopes.map((s) => (
                            <Badge key={s} variant="light" color={s === 'super_admin' ? 'indigo' : 'gray'}>
                              {t(`admins.scope.${s}`)}
                            </Badge>
                          ))}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <ActionIcon variant="subtle" color="gray" aria-label={t('members.actions_for', { email: a.email })}>
                              ⋯
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            {a.email !== me && (
                              <Menu.Item onClick={() => setPending({ kind: 'reset', email: a.email, scopes: a.scopes })}>
                                {t('admins.reset')}
                              </Menu.Item>
                            )}
                            <Menu.Item
                              color="red"
                              onClick={() => setPending({ kind: 'remove', email: a.email, scopes: a.scopes })}
                            >
                              {t('admins.remove')}
                            </Menu.Item>
                          </Menu.Dropdown>
                        </Menu>
                      </Table.Td>
                    </Table.Tr>
                  ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {adding && <AddAdmin onClose={() => setAdding(false)} />}
      {pending && <ConfirmAdmin pending={pending} onClose={() => setPending(null)} />}
    </Stack>
  );
}

function useInvalidateAdmins() {
  const client = useQueryClient();
  const team = useSession()?.team_slug ?? '';
  return () => void client.invalidateQueries({ queryKey: adminKeys.all(team) });
}

function AddAdmin({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const invalidate = useInvalidateAdmins();
  const [email, setEmail] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['admin']);
  const add = useMutation({ mutationFn: () => call('adminAdd', { action: 'add_admin', email, scopes }), onSuccess: invalidate });
  return (
    <Modal opened onClose={onClose} title={t('admins.add_title')} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate(undefined, {
            onSuccess: () => {
              notifications.show({ color: 'teal', message: t('admins.added', { email: email.trim() }) });
              onClose();
            },
          });
        }}
      >
        <Stack gap="md" data-testid="admin-add-dialog">
          <ModalError error={add.error} />
          <TextInput
            label={t('members.invite.email')}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            data-autofocus
          />
          <Checkbox.Group label={t('admins.scopes')} value={scopes} onChange={(v) => setScopes(v as Scope[])}>
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
            <Button type="submit" loading={add.isPending} disabled={!email.trim() || scopes.length === 0}>
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
  const invalidate = useInvalidateAdmins();
  const action = useMutation({
    mutationFn: () =>
      pending.kind === 'remove'
        ? call('adminRemove', { action: 'remove_admin', email: pending.email, scopes: pending.scopes })
        : call('adminAuthReset', { email: pending.email, reset_auth: true }),
    onSuccess: invalidate,
  });
  return (
    <ConfirmDialog
      title={t(`admins.confirm.${pending.kind}.title`)}
      action={t(pending.kind === 'remove' ? 'admins.remove' : 'admins.reset')}
      pending={action.isPending}
      error={action.error}
      onConfirm={() =>
        action.mutate(undefined, {
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
