import { BADGE_MAX_CHARS_IN_LIST, type Group, NO_PRIORITY } from '@latchkey/contracts/client';
import { Anchor, Badge, Button, Menu, Group as Row, Stack, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'wouter';
import { type Column, DataTable, RowMenu } from '../../components/DataTable.tsx';
import { ListToolbar } from '../../components/ListToolbar.tsx';
import { PageAction } from '../../components/PageHeader.tsx';
import { localPaging } from '../../components/Pager.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useListState } from '../../lib/use-list-state.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useGroupsQuery } from './api.ts';
import { Badges } from './Badges.tsx';
import { CreateGroupDialog, PriorityDialog, RemoveGroupsDialog, RenameGroupDialog } from './GroupDialogs.tsx';

type Dialog =
  | { kind: 'create' }
  | { kind: 'rename'; group: Group }
  | { kind: 'priority'; group: Group }
  | { kind: 'remove'; groups: Group[] };

/** /groups: every group (one huge page, spec §9), searched on the server, paged here by 10. */
export function Groups() {
  const { t } = useTranslation();
  const { search, setSearch, term: debounced, page, setPage, selected, setSelected } = useListState();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const groups = useGroupsQuery(debounced);
  const all = groups.data?.results ?? [];
  const { rows, pager } = localPaging(groups.data?.results, page, setPage);
  const columns = useGroupColumns(setDialog);

  return (
    <Stack gap="md" data-testid="groups">
      <ListToolbar search={{ value: search, onChange: setSearch, label: t('groups.search'), testId: 'groups-search' }} />
      <PageAction>
        <Button size="sm" onClick={() => setDialog({ kind: 'create' })} data-testid="group-create-open">
          {t('groups.create')}
        </Button>
      </PageAction>

      {selected.length > 0 && (
        <Row gap="sm" p="xs" bg="var(--mantine-color-indigo-0)" style={{ borderRadius: 8 }} data-testid="groups-bulk-bar">
          <Text size="sm" fw={600}>
            {t('members.selected', { n: formatNumber(selected.length) })}
          </Text>
          <Button
            size="xs"
            variant="light"
            color="red"
            onClick={() => setDialog({ kind: 'remove', groups: all.filter((g) => selected.includes(g.id)) })}
            data-testid="groups-remove-selected"
          >
            {t('members.action.remove')}
          </Button>
        </Row>
      )}

      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(g) => g.id}
        rowProps={(g) => ({ 'data-testid': 'group-row', 'data-name': g.name })}
        testId="groups-table"
        minWidth={760}
        skeletonRows={4}
        error={groups.isError}
        onRetry={() => void groups.refetch()}
        selection={{
          selected,
          onChange: setSelected,
          allLabel: t('members.select_all'),
          rowLabel: (g) => t('members.select', { email: g.name }),
        }}
        emptyTestId="groups-empty"
        empty={
          <>
            <Text c="dimmed">{debounced ? t('groups.no_match') : t('groups.empty')}</Text>
            {!debounced && (
              <Button variant="light" onClick={() => setDialog({ kind: 'create' })}>
                {t('groups.create')}
              </Button>
            )}
          </>
        }
        pager={pager}
      />

      {dialog?.kind === 'create' && <CreateGroupDialog onClose={() => setDialog(null)} />}
      {dialog?.kind === 'rename' && <RenameGroupDialog group={dialog.group} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'priority' && <PriorityDialog group={dialog.group} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'remove' && (
        <RemoveGroupsDialog
          groups={dialog.groups}
          onClose={(done) => {
            setDialog(null);
            if (done) setSelected([]);
          }}
        />
      )}
    </Stack>
  );
}

/** The groups table's columns; the last one is the row's action menu. */
function useGroupColumns(open: (dialog: Dialog) => void): Column<Group>[] {
  const { t } = useTranslation();
  return [
    {
      key: 'group',
      header: 'groups.col.group',
      maxWidth: 260,
      cell: (g) => (
        <>
          <Anchor component={Link} href={`/groups/${g.id}`} fw={500} size="sm" data-testid="group-link">
            {g.name}
          </Anchor>
          <ManagedBadge group={g} />
          <Text size="xs" c="dimmed">
            {t('groups.member_count', { n: formatNumber(g.member_count) })}
          </Text>
        </>
      ),
    },
    {
      key: 'members',
      header: 'groups.members',
      visibleFrom: 'sm',
      cell: (g) =>
        g.member_count === 0 ? (
          <Text size="sm" c="dimmed">
            {t('groups.no_members')}
          </Text>
        ) : (
          <Badges items={g.emails} total={g.member_count} max={BADGE_MAX_CHARS_IN_LIST} moreHref={`/groups/${g.id}`} />
        ),
    },
    { key: 'priority', header: 'groups.col.priority', width: 140, cell: (g) => <PriorityBadge level={g.priority_level} /> },
    {
      key: 'actions',
      header: 'table.actions',
      headerHidden: true,
      width: 48,
      cell: (g) => (
        <RowMenu label={t('members.actions_for', { email: g.name })}>
          {!managedElsewhere(g) && <Menu.Item onClick={() => open({ kind: 'rename', group: g })}>{t('groups.rename')}</Menu.Item>}
          <Menu.Item onClick={() => open({ kind: 'priority', group: g })}>{t('groups.priority.set')}</Menu.Item>
          {!managedElsewhere(g) && (
            <>
              <Menu.Divider />
              <Menu.Item color="red.9" onClick={() => open({ kind: 'remove', groups: [g] })}>
                {t('members.action.remove')}
              </Menu.Item>
            </>
          )}
        </RowMenu>
      ),
    },
  ];
}

/** Its name and members are changed by another source (SCIM or directory sync), never here. */
export const managedElsewhere = (g: Pick<Group, 'scim_managed' | 'directory_managed'>) => g.scim_managed || g.directory_managed;

/** A group an identity provider (SCIM) or directory sync manages: changed there, read-only here. */
export function ManagedBadge({ group }: { group: Pick<Group, 'scim_managed' | 'directory_managed'> }) {
  const { t } = useTranslation();
  if (!managedElsewhere(group)) return null;
  const key = group.scim_managed ? 'groups.scim_managed' : 'groups.directory_managed';
  return (
    <Tooltip label={t(`${key}.hint`)} withinPortal multiline maw={320}>
      <Badge
        size="xs"
        variant="light"
        color={group.scim_managed ? 'grape' : 'cyan'}
        ml={6}
        data-testid={group.scim_managed ? 'group-scim-badge' : 'group-directory-badge'}
      >
        {t(key)}
      </Badge>
    </Tooltip>
  );
}

export function PriorityBadge({ level }: { level: number }) {
  const { t } = useTranslation();
  return level === NO_PRIORITY ? (
    <Text size="sm" c="dimmed" data-testid="group-priority-value">
      {t('groups.priority.none')}
    </Text>
  ) : (
    <Badge variant="light" color="indigo" data-testid="group-priority-value">
      {t('groups.priority.level', { n: formatNumber(level) })}
    </Badge>
  );
}
