import { MultiSelect } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useAdminsQuery } from '../../admins/index.ts';

/** The menu stays short inside the drawer and the dialog (the multi-selects' height elsewhere). */
const MENU_MAX_HEIGHT = 190;
/** One e-mail destination takes at most this many recipients (the Hub's limit). */
const RECIPIENTS_MAX = 20;

/**
 * Who receives a rule's alerts by e-mail: chosen from the team's administrators (the licence
 * server's list, as the Administrators screen reads it), shown by name and address. Invited
 * people who have not accepted are not offered: the Hub refuses them too. A saved recipient
 * who is no longer an administrator stays visible, marked, so the admin can take them out.
 */
export function AdminRecipientPicker({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (emails: string[]) => void;
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  const admins = useAdminsQuery('');
  // The list closes once an administrator is picked, so it never covers the fields and buttons
  // below; typing or clicking the field opens it again.
  const [opened, setOpened] = useState(false);
  const active = (admins.data?.admins ?? []).filter((a) => a.status === 'active');
  const known = new Set(active.map((a) => a.email.toLowerCase()));
  // Until the list is read, nobody is marked as gone.
  const gone = admins.data ? value.filter((email) => !known.has(email.toLowerCase())) : [];
  const data = [
    ...active.map((a) => ({ value: a.email, label: a.name ? `${a.name} (${a.email})` : a.email })),
    ...value
      .filter((email) => !known.has(email.toLowerCase()))
      .map((email) => ({ value: email, label: gone.includes(email) ? t('alerts.dest.admins_gone', { email }) : email })),
  ];
  // Said under the field too (a pill's words are cut short on a phone), in the Hub's own words.
  const goneError = gone.length ? t('errors.alert_recipient_not_admin', { emails: gone.join(', ') }) : undefined;
  return (
    <MultiSelect
      label={t('alerts.dest.admins')}
      description={t('alerts.dest.admins_hint')}
      placeholder={value.length ? undefined : t('alerts.dest.admins_placeholder')}
      data={data}
      value={value}
      onChange={onChange}
      searchable
      onSearchChange={(next) => {
        if (next) setOpened(true);
      }}
      dropdownOpened={opened}
      onDropdownOpen={() => setOpened(true)}
      onDropdownClose={() => setOpened(false)}
      onOptionSubmit={() => setOpened(false)}
      hidePickedOptions
      clearable
      maxValues={RECIPIENTS_MAX}
      maxDropdownHeight={MENU_MAX_HEIGHT}
      nothingFoundMessage={admins.isFetching ? '…' : t('alerts.dest.admins_none')}
      error={error ?? goneError ?? (admins.isError ? t('alerts.dest.admins_unavailable') : undefined)}
      comboboxProps={{ withinPortal: true }}
      data-testid="alert-dest-emails"
    />
  );
}
