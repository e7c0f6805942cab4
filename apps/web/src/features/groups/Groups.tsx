import { BADGE_MAX_CHARS_IN_LIST, type Group, NO_PRIORITY } from '@latchkey/contracts/client';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Menu,
  Group as Row,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useGroupsQuery } from './api.ts';
import { Badges } from './Badges.tsx';
import { pageCount, pageOf } from './badges.ts';
import { CreateGroupDialog, PriorityDialog, RemoveGroupsDialog, RenameGroupDialog } from './GroupDialogs.tsx';
import { Pager } from './Pager.tsx';

type Dialog =
  | { kind: 'create' }
  | { kind: 'rename'; group: Group }
  | { kind: 'priority'; group: Group }
  | { kind: 'remove'; groups: Group[] };

/** /groups: every group (one huge page, spec §9), searched on the server, paged here by 10. */
export function Groups() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const groups = useGroupsQuery(debounced);
  const all = groups.data?.results ?? [];
  const rows = pageOf(all, page);
  // A new search starts again at page 1 (spec §4).
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on every search change
  useEffect(() => {
    setPage(1);
    setSelected([]);
  }, [debounced]);
  const allSelected = rows.length > 0 && rows.every((g) => selected.includes(g.id));
  const toggle = (id: string) => setSelected((s) => (s.includes(id) ? s.filter((v) => v !== id) : [...s, id]));

  return (
    <Stack gap="md" data-testid="groups">
      <Row justify="space-between" gap="sm">
        <TextInput
          placeholder={t('groups.search')}
          aria-label={t('groups.search')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={{ base: '100%', xs: 280 }}
          size="sm"
          data-testid="groups-search"
        />
        <Button size="sm" onClick={() => setDialog({ kind: 'create' })} data-testid="group-create-open">
          {t('groups.create')}
        </Button>
      </Row>

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

      {groups.isError ? (
        <DataFetchError onRetry={() => void groups.refetch()} />
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="sm" highlightOnHover data-testid="groups-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={t('members.select_all')}
                    checked={allSelected}
                    onChange={() =>
                      setSelected(
                        allSelected
                          ? selected.filter((id) => !rows.some((g) => g.id === id))
                          : [...new Set([...selected, ...rows.map((g) => g.id)])],
                      )
                    }
                  />
                </Table.Th>
                <Table.Th>{t('groups.col.group')}</Table.Th>
                <Table.Th>{t('groups.members')}</Table.Th>
                <Table.Th w={140}>{t('groups.col.priority')}</Table.Th>
                <Table.Th w={48}>
                  <span style={{ position: 'absolute', left: -9999 }}>{t('members.col.actions')}</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {!groups.data
                ? [1, 2, 3, 4].map((n) => (
                    <Table.Tr key={n}>
                      {[1, 2, 3, 4, 5].map((c) => (
                        <Table.Td key={c}>
                          <Skeleton h={16} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                : rows.map((g) => (
                    <Table.Tr key={g.id} data-testid="group-row" data-name={g.name}>
                      <Table.Td>
                        <Checkbox
                          aria-label={t('members.select', { email: g.name })}
                          checked={selected.includes(g.id)}
                          onChange={() => toggle(g.id)}
                        />
                      </Table.Td>
                      <Table.Td maw={260}>
                        <Anchor component={Link} href={`/groups/${g.id}`} fw={500} size="sm" data-testid="group-link">
                          {g.name}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {t('groups.member_count', { n: formatNumber(g.member_count) })}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {g.member_count === 0 ? (
                          <Text size="sm" c="dimmed">
                            {t('groups.no_members')}
                          </Text>
                        ) : (
                          <Badges
                            items={g.emails}
                            total={g.member_count}
                            max={BADGE_MAX_CHARS_IN_LIST}
                            moreHref={`/groups/${g.id}`}
                          />
                        )}
                      </Table.Td>
                      <Table.Td>
                        <PriorityBadge level={g.priority_level} />
                      </Table.Td>
                      <Table.Td>
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <ActionIcon variant="subtle" color="gray" aria-label={t('members.actions_for', { email: g.name })}>
                              ⋯
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item onClick={() => setDialog({ kind: 'rename', group: g })}>{t('groups.rename')}</Menu.Item>
                            <Menu.Item onClick={() => setDialog({ kind: 'priority', group: g })}>
                              {t('groups.priority.set')}
                            </Menu.Item>
                            <Menu.Divider />
                            <Menu.Item color="red" onClick={() => setDialog({ kind: 'remove', groups: [g] })}>
                              {t('members.action.remove')}
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
      {groups.data && all.length === 0 && (
        <Stack align="center" gap="xs" py="xl" data-testid="groups-empty">
          <Text c="dimmed">{debounced ? t('groups.no_match') : t('groups.empty')}</Text>
          {!debounced && (
            <Button variant="light" onClick={() => setDialog({ kind: 'create' })}>
              {t('groups.create')}
            </Button>
          )}
        </Stack>
      )}
      {all.length > 0 && (
        <Pager page={page} pages={pageCount(all.length)} total={all.length} shown={rows.length} onPage={setPage} />
      )}

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
