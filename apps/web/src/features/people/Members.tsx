import {
  APP_USAGES,
  type AppUsage,
  emailProblem,
  HUB_AUTHENTICATION,
  type HubAuthentication,
  LICENSE_STATUSES,
  type LicenseStatus,
  MAX_BULK_EMAILS,
  type Member,
  type MemberFilters,
} from '@latchkey/contracts/client';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Checkbox,
  FileButton,
  Group,
  Menu,
  Modal,
  Pill,
  Popover,
  Radio,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useConsoleContext } from '../../app/layout/console-context.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ModalError } from '../../components/ModalError.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { errorMessage, errorValues } from '../../lib/api-error.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { exportMembers, type MemberAction, useMemberActionMutation, useMembersCountQuery, useMembersPageQuery } from './api.ts';
import { currentCursor, emailsFromCsv, firstPage, nextPage, type Paging, pageNumber, previousPage } from './rules.ts';

const USAGE_COLORS: Record<AppUsage, string> = { active: 'teal', inactive: 'yellow', unresponsive: 'red' };
const STATUS_COLORS = { invited: 'blue', active: 'gray', suspended: 'orange' } as const;

/** The preset usage filter from the dashboard's adoption card (`?app_usage=`), read once. */
function usePresetUsage(): AppUsage[] {
  const search = useSearch();
  const [, navigate] = useLocation();
  const [preset] = useState(() => {
    const value = new URLSearchParams(search).get('app_usage');
    return APP_USAGES.filter((u) => u === value);
  });
  useEffect(() => {
    // The filter now lives in the page's state; the address loses it so other pages do not inherit it.
    if (search) navigate('/users?', { replace: true });
  }, [search, navigate]);
  return preset;
}

export function Members() {
  const { t } = useTranslation();
  const preset = usePresetUsage();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [licence, setLicence] = useState<LicenseStatus[]>([]);
  const [usage, setUsage] = useState<AppUsage[]>(preset);
  // Spec §2: the hub authentication filter shows only when the capability check passes (a connected Hub).
  const hubCapable = useConsoleContext().ctx.hubEnabled;
  const [hubAuth, setHubAuth] = useState<HubAuthentication | null>(null);
  const [paging, setPaging] = useState<Paging>(firstPage);
  const [selected, setSelected] = useState<string[]>([]);
  const [pending, setPending] = useState<MemberAction | null>(null);
  const [inviting, setInviting] = useState(false);
  const [exporting, setExporting] = useState(false);

  const filters: MemberFilters = useMemo(
    () => ({
      ...(debounced ? { search_value: debounced } : {}),
      ...(licence.length ? { license_status: licence } : {}),
      ...(usage.length ? { app_usage: usage } : {}),
      ...(hubAuth && hubCapable ? { hub_authentication: hubAuth } : {}),
    }),
    [debounced, licence, usage, hubAuth, hubCapable],
  );
  // Any change of search or filter goes back to page 1 (spec §4).
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on every filter change
  useEffect(() => {
    setPaging(firstPage());
    setSelected([]);
  }, [filters]);

  const page = useMembersPageQuery(filters, currentCursor(paging));
  const count = useMembersCountQuery(filters);
  const rows = page.data?.results ?? [];
  const allSelected = rows.length > 0 && rows.every((m) => selected.includes(m.email));

  const download = async () => {
    setExporting(true);
    try {
      const { csv } = await exportMembers(filters);
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = 'members.csv';
      a.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      notifications.show({ color: 'red', message: t(errorMessage(error), errorValues(error)) });
    } finally {
      setExporting(false);
    }
  };

  const toggle = <T,>(list: T[], value: T): T[] => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
  const from = (pageNumber(paging) - 1) * 10 + 1;

  return (
    <Stack gap="md" data-testid="members">
      <Group justify="space-between" gap="sm">
        <Group gap="sm" wrap="wrap">
          <TextInput
            placeholder={t('members.search')}
            aria-label={t('members.search')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            w={{ base: '100%', xs: 280 }}
            size="sm"
            data-testid="members-search"
          />
          <FilterMenu label={t('members.filter.license_status')} testId="filter-licence">
            {LICENSE_STATUSES.map((s) => (
              <Checkbox
                key={s}
                label={t(`members.licence.${s}`)}
                checked={licence.includes(s)}
                onChange={() => setLicence((l) => toggle(l, s))}
              />
            ))}
          </FilterMenu>
          <FilterMenu label={t('members.filter.app_usage')} testId="filter-usage">
            {APP_USAGES.map((u) => (
              <Checkbox
                key={u}
                label={t(`dashboard.adoption.${u}`)}
                checked={usage.includes(u)}
                onChange={() => setUsage((l) => toggle(l, u))}
              />
            ))}
          </FilterMenu>
          {hubCapable && (
            <FilterMenu label={t('members.filter.hub_authentication')} testId="filter-hub">
              <Radio.Group value={hubAuth} onChange={(v) => setHubAuth(v as HubAuthentication)}>
                <Stack gap="xs">
                  {HUB_AUTHENTICATION.map((h) => (
                    <Radio key={h} value={h} label={t(`devices.hub.${h}`)} />
                  ))}
                </Stack>
              </Radio.Group>
            </FilterMenu>
          )}
        </Group>
        <Group gap="sm">
          <Button variant="default" size="sm" onClick={download} loading={exporting} data-testid="export-csv">
            {t('members.export')}
          </Button>
          <Button size="sm" onClick={() => setInviting(true)} data-testid="invite-open">
            {t('members.invite')}
          </Button>
        </Group>
      </Group>

      {(licence.length > 0 || usage.length > 0 || (hubAuth && hubCapable)) && (
        <Group gap="xs" data-testid="filter-chips">
          {licence.map((s) => (
            <Pill
              key={s}
              withRemoveButton
              removeButtonProps={removeProps(t('members.filter.remove'))}
              onRemove={() => setLicence((l) => l.filter((v) => v !== s))}
            >
              {t('members.filter.license_status')}: {t(`members.licence.${s}`)}
            </Pill>
          ))}
          {usage.map((u) => (
            <Pill
              key={u}
              withRemoveButton
              removeButtonProps={removeProps(t('members.filter.remove'))}
              onRemove={() => setUsage((l) => l.filter((v) => v !== u))}
              data-testid={`chip-usage-${u}`}
            >
              {t('members.filter.app_usage')}: {t(`dashboard.adoption.${u}`)}
            </Pill>
          ))}
          {hubAuth && hubCapable && (
            <Pill
              withRemoveButton
              removeButtonProps={removeProps(t('members.filter.remove'))}
              onRemove={() => setHubAuth(null)}
              data-testid="chip-hub"
            >
              {t('members.filter.hub_authentication')}: {t(`devices.hub.${hubAuth}`)}
            </Pill>
          )}
        </Group>
      )}

      {selected.length > 0 && (
        <Group gap="sm" p="xs" bg="var(--mantine-color-indigo-0)" style={{ borderRadius: 8 }} data-testid="bulk-bar">
          <Text size="sm" fw={600}>
            {t('members.selected', { n: formatNumber(selected.length) })}
          </Text>
          <Button size="xs" variant="light" onClick={() => setPending({ kind: 'assign', emails: selected })}>
            {t('members.action.assign')}
          </Button>
          <Button size="xs" variant="light" onClick={() => setPending({ kind: 'revoke', emails: selected })}>
            {t('members.action.revoke')}
          </Button>
          <Button size="xs" variant="light" color="red" onClick={() => setPending({ kind: 'remove', emails: selected })}>
            {t('members.action.remove')}
          </Button>
        </Group>
      )}

      {page.isError ? (
        <DataFetchError onRetry={() => void page.refetch()} />
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table verticalSpacing="sm" highlightOnHover data-testid="members-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={t('members.select_all')}
                    checked={allSelected}
                    onChange={() => setSelected(allSelected ? [] : [...new Set([...selected, ...rows.map((m) => m.email)])])}
                  />
                </Table.Th>
                <Table.Th>{t('members.col.member')}</Table.Th>
                <Table.Th>{t('members.col.status')}</Table.Th>
                <Table.Th>{t('members.col.licence')}</Table.Th>
                <Table.Th>{t('members.col.usage')}</Table.Th>
                <Table.Th>{t('members.col.last_active')}</Table.Th>
                <Table.Th w={48}>
                  <span style={{ position: 'absolute', left: -9999 }}>{t('members.col.actions')}</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {!page.data
                ? [1, 2, 3, 4, 5].map((n) => (
                    <Table.Tr key={n}>
                      {[1, 2, 3, 4, 5, 6, 7].map((c) => (
                        <Table.Td key={c}>
                          <Skeleton h={16} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                : rows.map((m) => (
                    <MemberRow
                      key={m.email}
                      member={m}
                      checked={selected.includes(m.email)}
                      onCheck={() => setSelected((s) => toggle(s, m.email))}
                      onAction={setPending}
                    />
                  ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {page.data && rows.length === 0 && (
        <Stack align="center" gap="xs" py="xl" data-testid="members-empty">
          <Text c="dimmed">
            {filters.search_value || usage.length || licence.length || filters.hub_authentication
              ? t('members.no_match')
              : t('members.empty')}
          </Text>
          <Button variant="light" onClick={() => setInviting(true)}>
            {t('members.invite')}
          </Button>
        </Stack>
      )}

      <Group justify="space-between" data-testid="members-paging">
        <Text size="sm" c="dimmed" data-testid="members-range">
          {count.data !== undefined && rows.length > 0
            ? t('members.range', {
                from: formatNumber(from),
                to: formatNumber(from + rows.length - 1),
                total: formatNumber(count.data),
              })
            : '\u00a0'}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="default" disabled={pageNumber(paging) === 1} onClick={() => setPaging(previousPage)}>
            {t('members.previous')}
          </Button>
          <Text size="sm" aria-live="polite">
            {t('members.page', { n: formatNumber(pageNumber(paging)) })}
          </Text>
          <Button
            size="xs"
            variant="default"
            disabled={!page.data?.next_cursor || page.isPlaceholderData}
            onClick={() => {
              const cursor = page.data?.next_cursor;
              if (cursor) setPaging((p) => nextPage(p, cursor));
            }}
          >
            {t('members.next')}
          </Button>
        </Group>
      </Group>

      {pending && (
        <ConfirmAction
          action={pending}
          onClose={(done) => {
            setPending(null);
            if (done) setSelected([]);
          }}
        />
      )}
      {inviting && <InviteModal onClose={() => setInviting(false)} />}
    </Stack>
  );
}

/** Mantine hides a pill's remove button from the keyboard; filter chips must be removable by keyboard too. */
const removeProps = (label: string) => ({ 'aria-hidden': false, tabIndex: 0, 'aria-label': label }) as const;

function FilterMenu({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <Popover position="bottom-start" shadow="md" withinPortal>
      <Popover.Target>
        <Button variant="default" size="sm" data-testid={testId}>
          {label}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">{children}</Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

function MemberRow({
  member: m,
  checked,
  onCheck,
  onAction,
}: {
  member: Member;
  checked: boolean;
  onCheck: () => void;
  onAction: (a: MemberAction) => void;
}) {
  const { t } = useTranslation();
  const emails = [m.email];
  return (
    <Table.Tr data-testid="member-row" data-email={m.email}>
      <Table.Td>
        <Checkbox aria-label={t('members.select', { email: m.email })} checked={checked} onChange={onCheck} />
      </Table.Td>
      <Table.Td maw={280}>
        <Anchor
          component={Link}
          href={`/users/${encodeURIComponent(m.email)}`}
          size="sm"
          fw={500}
          truncate="end"
          display="block"
          data-testid="member-devices-link"
        >
          {m.name || m.email}
        </Anchor>
        <Text size="xs" c="dimmed" truncate="end">
          {m.email}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={STATUS_COLORS[m.status]}>
          {t(`members.status.${m.status}`)}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Badge variant="dot" color={m.licensed ? 'teal' : 'gray'}>
          {t(m.licensed ? 'members.licence.licensed' : 'members.licence.unlicensed')}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={USAGE_COLORS[m.usage]}>
          {t(`dashboard.adoption.${m.usage}`)}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{m.last_active_at ? formatDateTime(m.last_active_at) : '–'}</Text>
      </Table.Td>
      <Table.Td>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={t('members.actions_for', { email: m.email })}>
              ⋯
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {m.status === 'invited' && (
              <Menu.Item onClick={() => onAction({ kind: 'resend', emails })}>{t('members.action.resend')}</Menu.Item>
            )}
            {m.licensed ? (
              <Menu.Item onClick={() => onAction({ kind: 'revoke', emails })}>{t('members.action.revoke')}</Menu.Item>
            ) : (
              <Menu.Item onClick={() => onAction({ kind: 'assign', emails })}>{t('members.action.assign')}</Menu.Item>
            )}
            {m.status === 'active' && (
              <Menu.Item onClick={() => onAction({ kind: 'suspend', emails })}>{t('members.action.suspend')}</Menu.Item>
            )}
            {m.status === 'suspended' && (
              <Menu.Item onClick={() => onAction({ kind: 'restore', emails })}>{t('members.action.restore')}</Menu.Item>
            )}
            <Menu.Divider />
            <Menu.Item color="red" onClick={() => onAction({ kind: 'remove', emails })}>
              {t('members.action.remove')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Table.Td>
    </Table.Tr>
  );
}

/** Every member action asks first; the destructive ones in red, errors above the dialog content. */
function ConfirmAction({ action, onClose }: { action: MemberAction; onClose: (done: boolean) => void }) {
  const { t } = useTranslation();
  const mutation = useMemberActionMutation();
  const n = action.emails.length;
  const who = n === 1 ? action.emails[0] : t('members.n_members', { n: formatNumber(n) });
  const destructive = action.kind === 'remove' || action.kind === 'revoke' || action.kind === 'suspend';
  return (
    <ConfirmDialog
      title={t(`members.confirm.${action.kind}.title`)}
      action={t(`members.action.${action.kind}`)}
      pending={mutation.isPending}
      error={mutation.error}
      onConfirm={() =>
        mutation.mutate(action, {
          onSuccess: () => {
            notifications.show({ color: 'teal', message: t(`members.done.${action.kind}`, { who }) });
            onClose(true);
          },
        })
      }
      onClose={() => onClose(false)}
      color={destructive ? 'red' : null}
    >
      {t(`members.confirm.${action.kind}.body`, { who })}
    </ConfirmDialog>
  );
}

/** Invite one person by email, or many from a CSV file (any column holding emails). */
function InviteModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [fileEmails, setFileEmails] = useState<string[]>([]);
  const [fileName, setFileName] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const mutation = useMemberActionMutation();
  const typed = text.trim();
  const emails = fileEmails.length > 0 ? fileEmails : typed ? [typed] : [];
  const problem =
    fileEmails.length > 0
      ? fileEmails.length > MAX_BULK_EMAILS
        ? t('members.invite.too_many', { max: formatNumber(MAX_BULK_EMAILS) })
        : null
      : emailProblem(typed)
        ? t(emailProblem(typed) as string)
        : null;
  const submit = () => {
    setTouched(true);
    if (problem) return;
    mutation.mutate(
      { kind: 'invite', emails },
      {
        onSuccess: (result) => {
          const n = 'invited' in result ? result.invited.length : emails.length;
          notifications.show({ color: 'teal', message: t('members.done.invite', { n: formatNumber(n) }) });
          onClose();
        },
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('members.invite.title')} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="md" data-testid="invite-dialog">
          <ModalError error={mutation.error} />
          <TextInput
            label={t('members.invite.email')}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            onBlur={() => setTouched(true)}
            disabled={fileEmails.length > 0}
            error={touched && fileEmails.length === 0 ? problem : undefined}
            data-autofocus
            data-testid="invite-email"
          />
          <Text size="sm" c="dimmed">
            {t('members.invite.csv_hint')}
          </Text>
          <Group gap="sm">
            <FileButton
              accept=".csv,text/csv"
              onChange={async (file) => {
                if (!file) return;
                setFileName(file.name);
                setFileEmails(emailsFromCsv(await file.text()));
              }}
            >
              {(props) => (
                <Button variant="default" size="sm" {...props} data-testid="invite-csv">
                  {t('members.invite.choose_csv')}
                </Button>
              )}
            </FileButton>
            {fileName && (
              <Pill
                withRemoveButton
                onRemove={() => {
                  setFileName(null);
                  setFileEmails([]);
                }}
                data-testid="invite-csv-summary"
              >
                {t('members.invite.csv_found', { file: fileName, n: formatNumber(fileEmails.length) })}
              </Pill>
            )}
          </Group>
          {fileName && fileEmails.length > 0 && problem && (
            <Text size="sm" c="red">
              {problem}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={mutation.isPending} disabled={emails.length === 0} data-testid="invite-submit">
              {t('members.invite.send', { n: formatNumber(emails.length) })}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
