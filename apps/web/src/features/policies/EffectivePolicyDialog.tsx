import { Modal, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from '../../lib/use-translation.ts';
import { useMemberPickerQuery } from './api.ts';
import { EffectivePolicy } from './EffectivePolicy.tsx';

/** Pick a member and see the policy their apps follow, with each value's source. */
export function EffectivePolicyDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [email, setEmail] = useState<string | null>(null);
  const [debounced] = useDebouncedValue(search, 250);
  const members = useMemberPickerQuery(debounced);
  const options = (members.data ?? []).map((m) => ({ value: m.email, label: m.name ? `${m.name} (${m.email})` : m.email }));
  if (email && !options.some((o) => o.value === email)) options.unshift({ value: email, label: email });
  return (
    <Modal opened onClose={onClose} title={t('policy.effective.title')} size="xl" centered>
      <Stack gap="md">
        <Select
          label={t('policy.effective.member')}
          placeholder={t('policy.effective.search')}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options: all }) => all}
          data={options}
          value={email}
          onChange={setEmail}
          nothingFoundMessage={members.isFetching ? '…' : t('policy.effective.no_member')}
          data-testid="effective-member"
        />
        {email ? (
          <EffectivePolicy email={email} />
        ) : (
          <Text size="sm" c="dimmed">
            {t('policy.effective.pick')}
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
