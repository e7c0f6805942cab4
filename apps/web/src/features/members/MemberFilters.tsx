import {
  APP_USAGES,
  type AppUsage,
  HUB_AUTHENTICATION,
  type HubAuthentication,
  LICENSE_STATUSES,
  type LicenseStatus,
  MEMBER_SOURCES,
  type MemberFilters,
  type MemberSource,
} from '@latchkey/contracts/client';
import { Button, Checkbox, Group, Pill, Popover, Radio, Stack } from '@mantine/core';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useConsoleContext } from '../../lib/console-context.ts';
import { useTranslation } from '../../lib/use-translation.ts';

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

/** The filters of the members list and, with the list's search term, the call's filters they make. */
export function useMemberFilters(term: string) {
  const preset = usePresetUsage();
  const [licence, setLicence] = useState<LicenseStatus[]>([]);
  const [usage, setUsage] = useState<AppUsage[]>(preset);
  const [source, setSource] = useState<MemberSource[]>([]);
  // Spec §2: the hub authentication filter shows only when the capability check passes (a connected Hub).
  const hubCapable = useConsoleContext().ctx.hubEnabled;
  const [hubAuth, setHubAuth] = useState<HubAuthentication | null>(null);
  const filters: MemberFilters = useMemo(
    () => ({
      ...(term ? { search_value: term } : {}),
      ...(licence.length ? { license_status: licence } : {}),
      ...(usage.length ? { app_usage: usage } : {}),
      ...(source.length ? { source } : {}),
      ...(hubAuth && hubCapable ? { hub_authentication: hubAuth } : {}),
    }),
    [term, licence, usage, source, hubAuth, hubCapable],
  );
  return { licence, setLicence, usage, setUsage, source, setSource, hubCapable, hubAuth, setHubAuth, filters };
}

type MemberFilterState = ReturnType<typeof useMemberFilters>;

const toggle = <T,>(list: T[], value: T): T[] => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);

/** The filter menus beside the search: licence, app usage, source, and Hub authentication with a connected Hub. */
export function MemberFilterMenus({ state }: { state: MemberFilterState }) {
  const { t } = useTranslation();
  const { licence, setLicence, usage, setUsage, source, setSource, hubCapable, hubAuth, setHubAuth } = state;
  return (
    <>
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
      <FilterMenu label={t('members.filter.source')} testId="filter-source">
        {MEMBER_SOURCES.map((s) => (
          <Checkbox
            key={s}
            label={t(`members.source.${s}`)}
            checked={source.includes(s)}
            onChange={() => setSource((l) => toggle(l, s))}
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
    </>
  );
}

/** The chosen filters as removable chips, shown once any is chosen. */
export function MemberFilterChips({ state }: { state: MemberFilterState }) {
  const { t } = useTranslation();
  const { licence, setLicence, usage, setUsage, source, setSource, hubCapable, hubAuth, setHubAuth } = state;
  if (!(licence.length > 0 || usage.length > 0 || source.length > 0 || (hubAuth && hubCapable))) return null;
  return (
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
      {source.map((s) => (
        <Pill
          key={s}
          withRemoveButton
          removeButtonProps={removeProps(t('members.filter.remove'))}
          onRemove={() => setSource((l) => l.filter((v) => v !== s))}
          data-testid={`chip-source-${s}`}
        >
          {t('members.filter.source')}: {t(`members.source.${s}`)}
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
