import type { GroupMember } from '@latchkey/contracts/client';
import { Badge, Button, Card, Group, Menu, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { EmailAddress } from '../../components/EmailAddress.tsx';
import { ListSearch } from '../../components/ListToolbar.tsx';
import { PageAction } from '../../components/PageHeader.tsx';
import { localPaging } from '../../components/Pager.tsx';
import { RowMenu } from '../../components/RowMenu.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useListState } from '../../lib/use-list-state.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useGroupMutation, useGroupQuery } from './api.ts';
import { ManagedBadge, managedElsewhere, PriorityBadge } from './Groups.tsx';
import { MemberPicker } from './MemberPicker.tsx';

const STATUS_COLORS = { invited: 'blue', active: 'gray', suspended: 'orange' } as const;

/** /groups/{groupId}: the group's members; add members, take them out, open a member's devices. */
export function GroupMembers() {
  const { t } = useTranslation();
  const { groupId = '' } = useParams<{ groupId: string }>();
  const group = useGroupQuery(groupId);
  // Managed by the identity provider (SCIM) or directory sync: its members change there, not here.
  const managed = group.data ? managedElsewhere(group.data) : false;
  // Filtered here, as typed: the group's members are all loaded.
  const { search, setSearch, term: typed, page, setPage } = useListState({ debounceMs: 0 });
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<GroupMember | null>(null);
  const term = typed.toLowerCase();
  const members = group.data?.members.filter(
    (m) => !term || m.email.toLowerCase().includes(term) || m.name.toLowerCase().includes(term),
  );
  const { rows, pager } = localPaging(members, page, setPage);
  const columns: Column<GroupMember>[] = [
    {
      key: 'member',
      header: 'members.col.member',
      maxWidth: 320,
      cell: (m) => (
        <>
          <Text size="sm" fw={500}>
            {m.name || <EmailAddress address={m.email} />}
          </Text>
          {m.name && (
            <Text size="xs" c="dimmed">
              <EmailAddress address={m.email} />
            </Text>
          )}
        </>
      ),
    },
    {
      key: 'status',
      header: 'members.col.status',
      cell: (m) => (
        <Badge variant="light" color={STATUS_COLORS[m.status]}>
          {t(`members.status.${m.status}`)}
        </Badge>
      ),
    },
    {
      key: 'actions',
      header: 'table.actions',
      headerHidden: true,
      width: 48,
      cell: (m) => (
        <RowMenu label={t('members.actions_for', { email: m.email })}>
          <Menu.Item
            component={Link}
            href={`/groups/${groupId}/${encodeURIComponent(m.email)}`}
            data-testid="member-devices-link"
          >
            {t('devices.open')}
          </Menu.Item>
          {!managed && (
            <Menu.Item color="red.9" onClick={() => setRemoving(m)}>
              {t('groups.take_out')}
            </Menu.Item>
          )}
        </RowMenu>
      ),
    },
  ];

  if (group.isError) return <DataFetchError onRetry={() => void group.refetch()} />;
  return (
    <Stack gap="md" data-testid="group-members">
      <Card withBorder radius="md" padding="lg">
        {group.data ? (
          <Group justify="space-between" wrap="wrap">
            <Stack gap={4}>
              <Title order={2} size="h3" data-testid="group-title">
                {group.data.name}
              </Title>
              <Group gap="sm">
                <Text size="sm" c="dimmed" data-testid="group-member-count">
                  {t('groups.member_count', { n: formatNumber(group.data.member_count) })}
                </Text>
                <PriorityBadge level={group.data.priority_level} />
                <ManagedBadge group={group.data} />
              </Group>
            </Stack>
            {managed ? (
              <Text
                size="sm"
                c="dimmed"
                maw={360}
                data-testid={group.data.scim_managed ? 'group-scim-readonly' : 'group-directory-readonly'}
              >
                {t(group.data.scim_managed ? 'groups.scim_managed.hint' : 'groups.directory_managed.hint')}
              </Text>
            ) : (
              <PageAction>
                <Button size="sm" onClick={() => setAdding(true)} data-testid="group-add-open">
                  {t('groups.add_members')}
                </Button>
              </PageAction>
            )}
          </Group>
        ) : (
          <Stack gap="xs">
            <Skeleton h={24} w={200} />
            <Skeleton h={14} w={120} />
          </Stack>
        )}
      </Card>

      <ListSearch value={search} onChange={setSearch} label={t('members.search')} testId="group-members-search" />
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(m) => m.email}
        rowProps={(m) => ({ 'data-testid': 'group-member-row', 'data-email': m.email })}
        testId="group-members-table"
        minWidth={640}
        skeletonRows={3}
        emptyTestId="group-members-empty"
        empty={
          <>
            <Text c="dimmed">{term ? t('members.no_match') : t('groups.no_members')}</Text>
            {!term && !managed && (
              <Button variant="light" onClick={() => setAdding(true)}>
                {t('groups.add_members')}
              </Button>
            )}
          </>
        }
        pager={pager}
      />

      {adding && group.data && (
        <AddMembersDialog id={groupId} existing={group.data.members.map((m) => m.email)} onClose={() => setAdding(false)} />
      )}
      {removing && <TakeOutDialog id={groupId} member={removing} onClose={() => setRemoving(null)} />}
    </Stack>
  );
}

function AddMembersDialog({ id, existing, onClose }: { id: string; existing: string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const mutation = useGroupMutation();
  const [emails, setEmails] = useState<string[]>([]);
  return (
    <ConfirmDialog
      title={t('groups.add_members')}
      action={t('groups.add', { n: formatNumber(emails.length) })}
      pending={mutation.isPending}
      error={mutation.error}
      onConfirm={() =>
        mutation.mutate(
          { kind: 'add', id, emails },
          {
            onSuccess: () => {
              notifications.show({ color: 'teal', message: t('groups.done.add', { n: formatNumber(emails.length) }) });
              onClose();
            },
          },
        )
      }
      onClose={onClose}
      color={null}
      testId="group-add-dialog"
      confirmTestId="group-add-submit"
      confirmDisabled={emails.length === 0}
    >
      <MemberPicker label={t('groups.members')} value={emails} onChange={setEmails} exclude={existing} />
    </ConfirmDialog>
  );
}

function TakeOutDialog({ id, member, onClose }: { id: string; member: GroupMember; onClose: () => void }) {
  const { t } = useTranslation();
  const mutation = useGroupMutation();
  return (
    <ConfirmDialog
      title={t('groups.take_out.title')}
      action={t('groups.take_out')}
      pending={mutation.isPending}
      error={mutation.error}
      onConfirm={() =>
        mutation.mutate(
          { kind: 'take_out', id, emails: [member.email] },
          {
            onSuccess: () => {
              notifications.show({ color: 'teal', message: t('groups.done.take_out', { who: member.email }) });
              onClose();
            },
          },
        )
      }
      onClose={onClose}
      testId="group-take-out-dialog"
      confirmTestId="group-take-out-confirm"
    >
      {t('groups.take_out.body', { who: member.email })}
    </ConfirmDialog>
  );
}
