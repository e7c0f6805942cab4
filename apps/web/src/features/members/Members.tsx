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
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { type Column, DataTable, RowMenu } from '../../components/DataTable.tsx';
import { ModalError } from '../../components/ModalError.tsx';
import { errorMessage, errorValues } from '../../lib/api-error.ts';
import { useConsoleContext } from '../../lib/console-context.ts';
import { fieldProps } from '../../lib/form.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { EMAIL_MAX, limitProps, SEARCH_MAX, trimPasted } from '../../lib/limits.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import {
  type MemberAction,
  useExportMembersMutation,
  useMemberActionMutation,
  useMembersCountQuery,
  useMembersPageQuery,
} from './api.ts';
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
  // The dialog leaves the page when it closes: the focus goes back to the button that opened it.
  const inviteOpener = useRef<HTMLButtonElement | null>(null);
  const openInvite = (event: React.MouseEvent<HTMLButtonElement>) => {
    inviteOpener.current = event.currentTarget;
    setInviting(true);
  };
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
  const exporter = useExportMembersMutation();

  const download = async () => {
    setExporting(true);
    try {
      const { csv } = await exporter.mutateAsync(filters);
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
  const columns = useMemberColumns(setPending);

  return (
    <Stack gap="md" data-testid="members">
      <Group justify="space-between" gap="sm">
        <Group gap="sm" wrap="wrap">
          <TextInput
            {...limitProps(SEARCH_MAX)}
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
          <Button size="sm" onClick={openInvite} data-testid="invite-open">
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

      <DataTable
        columns={columns}
        rows={page.data ? rows : undefined}
        rowKey={(m) => m.email}
        rowProps={(m) => ({ 'data-testid': 'member-row', 'data-email': m.email })}
        testId="members-table"
        minWidth={900}
        error={page.isError}
        onRetry={() => void page.refetch()}
        selection={{
          selected,
          onChange: setSelected,
          allLabel: t('members.select_all'),
          rowLabel: (m) => t('members.select', { email: m.email }),
        }}
        emptyTestId="members-empty"
        empty={
          <>
            <Text c="dimmed">
              {filters.search_value || usage.length || licence.length || filters.hub_authentication
                ? t('members.no_match')
                : t('members.empty')}
            </Text>
            <Button variant="light" onClick={openInvite}>
              {t('members.invite')}
            </Button>
          </>
        }
        pager={{
          page: pageNumber(paging),
          hasNext: Boolean(page.data?.next_cursor) && !page.isPlaceholderData,
          total: count.data,
          shown: rows.length,
          rangeTestId: 'members-range',
          onPage: (n) => {
            const cursor = page.data?.next_cursor;
            if (n < pageNumber(paging)) setPaging(previousPage);
            else if (cursor) setPaging((p) => nextPage(p, cursor));
          },
        }}
      />

      {pending && (
        <ConfirmAction
          action={pending}
          onClose={(done) => {
            setPending(null);
            if (done) setSelected([]);
          }}
        />
      )}
      {inviting && (
        <InviteModal
          onClose={() => {
            setInviting(false);
            inviteOpener.current?.focus();
          }}
        />
      )}
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

/** The members table's columns; the last one is the row's action menu. */
function useMemberColumns(onAction: (a: MemberAction) => void): Column<Member>[] {
  const { t } = useTranslation();
  return [
    {
      key: 'member',
      header: 'members.col.member',
      maxWidth: 280,
      cell: (m) => (
        <>
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
          {/* Without a name (an invited person) the email is the headline: shown once, not twice. */}
          {m.name && (
            <Text size="xs" c="dimmed" truncate="end">
              {m.email}
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
      key: 'licence',
      header: 'members.col.licence',
      cell: (m) => (
        <Badge variant="dot" color={m.licensed ? 'teal' : 'gray'}>
          {t(m.licensed ? 'members.licence.licensed' : 'members.licence.unlicensed')}
        </Badge>
      ),
    },
    {
      key: 'usage',
      header: 'members.col.usage',
      // Someone only invited has not had the chance to use the app: no red "never used" badge.
      cell: (m) =>
        m.status === 'invited' ? (
          <Text size="sm" c="dimmed" data-testid="usage-none">
            –
          </Text>
        ) : (
          <Badge variant="light" color={USAGE_COLORS[m.usage]}>
            {t(`dashboard.adoption.${m.usage}`)}
          </Badge>
        ),
    },
    {
      key: 'last_active',
      header: 'members.col.last_active',
      cell: (m) => <Text size="sm">{m.last_active_at ? formatDateTime(m.last_active_at) : '–'}</Text>,
    },
    {
      key: 'actions',
      header: 'table.actions',
      headerHidden: true,
      width: 48,
      cell: (m) => {
        const emails = [m.email];
        return (
          <RowMenu label={t('members.actions_for', { email: m.email })}>
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
            <Menu.Item color="red.9" onClick={() => onAction({ kind: 'remove', emails })}>
              {t('members.action.remove')}
            </Menu.Item>
          </RowMenu>
        );
      },
    },
  ];
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
  const form = useForm({
    initialValues: { email: '', csv: null as { name: string; emails: string[] } | null },
    // A chosen CSV file replaces the typed address; the contracts' emailProblem is the server's rule.
    validate: { email: (email, values) => (values.csv ? null : emailProblem(email.trim())) },
    validateInputOnBlur: true,
  });
  const mutation = useMemberActionMutation();
  const { csv } = form.values;
  const typed = form.values.email.trim();
  // Only a valid address counts: Send says how many will go, and waits while there is none.
  const emails = csv ? csv.emails : typed && !emailProblem(typed) ? [typed] : [];
  const tooMany = csv !== null && csv.emails.length > MAX_BULK_EMAILS;
  const submit = form.onSubmit(() => {
    if (tooMany) return;
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
  });
  return (
    <Modal opened onClose={onClose} title={t('members.invite.title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md" data-testid="invite-dialog">
          <ModalError error={mutation.error} />
          <TextInput
            {...limitProps(EMAIL_MAX, trimPasted)}
            label={t('members.invite.email')}
            {...fieldProps(form, 'email', t)}
            disabled={csv !== null}
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
                form.setFieldValue('csv', { name: file.name, emails: emailsFromCsv(await file.text()) });
                form.clearFieldError('email');
              }}
            >
              {(props) => (
                <Button variant="default" size="sm" {...props} data-testid="invite-csv">
                  {t('members.invite.choose_csv')}
                </Button>
              )}
            </FileButton>
            {csv && (
              <Pill withRemoveButton onRemove={() => form.setFieldValue('csv', null)} data-testid="invite-csv-summary">
                {t('members.invite.csv_found', { file: csv.name, n: formatNumber(csv.emails.length) })}
              </Pill>
            )}
          </Group>
          {tooMany && (
            <Text size="sm" c="red">
              {t('members.invite.too_many', { max: formatNumber(MAX_BULK_EMAILS) })}
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
