import { MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from '../../lib/use-translation.ts';
import { useMemberSearchQuery } from './api.ts';

/** Spec §9: the multi-select's menu is at most 190 px high. */
const MENU_MAX_HEIGHT = 190;

/** A searchable multi-select of the team's current members (searched on the server, 20 at a time). */
export function MemberPicker({
  value,
  onChange,
  label,
  exclude = [],
}: {
  value: string[];
  onChange: (emails: string[]) => void;
  label: string;
  exclude?: string[];
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  // The list closes once a member is picked, so it never covers the dialog's buttons;
  // typing or clicking the field opens it again.
  const [opened, setOpened] = useState(false);
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const found = useMemberSearchQuery(debounced);
  const options = [...new Set([...value, ...(found.data ?? []).filter((e) => !exclude.includes(e))])];
  return (
    <MultiSelect
      label={label}
      placeholder={t('groups.pick_members')}
      data={options}
      value={value}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={(next) => {
        setSearch(next);
        if (next) setOpened(true);
      }}
      dropdownOpened={opened}
      onDropdownOpen={() => setOpened(true)}
      onDropdownClose={() => setOpened(false)}
      onOptionSubmit={() => setOpened(false)}
      // The server already filtered by the search; the list must not filter again.
      filter={({ options: all }) => all}
      nothingFoundMessage={found.isFetching ? '…' : t('members.no_match')}
      maxDropdownHeight={MENU_MAX_HEIGHT}
      hidePickedOptions
      clearable
      comboboxProps={{ withinPortal: true }}
      data-testid="member-picker"
    />
  );
}
