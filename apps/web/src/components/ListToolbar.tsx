import { Group, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { limitProps, SEARCH_MAX } from '../lib/limits.ts';

interface ListSearchProps {
  value: string;
  onChange: (value: string) => void;
  /** Translated; the placeholder too unless one is given. */
  label: string;
  placeholder?: string;
  /** A label shown above the box (beside filters with labels); otherwise it is the box's accessible name only. */
  labelVisible?: boolean;
  testId?: string;
  width?: number;
}

/** A list's search box: the search length limit, full width on phones, a fixed width from xs up. */
export function ListSearch({ value, onChange, label, placeholder, labelVisible, testId, width = 280 }: ListSearchProps) {
  return (
    <TextInput
      {...limitProps(SEARCH_MAX)}
      {...(labelVisible ? { label } : { 'aria-label': label })}
      placeholder={placeholder ?? label}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      w={{ base: '100%', xs: width }}
      size="sm"
      data-testid={testId}
    />
  );
}

/**
 * The row above a list: the search (with the list's filters beside it, if any) on the left and the
 * list's actions on the right.
 */
export function ListToolbar({
  search,
  filters,
  actions,
  align,
}: {
  search: ListSearchProps;
  filters?: ReactNode;
  actions?: ReactNode;
  align?: 'flex-end';
}) {
  return (
    <Group justify="space-between" gap="sm" align={align}>
      {filters ? (
        <Group gap="sm" wrap="wrap">
          <ListSearch {...search} />
          {filters}
        </Group>
      ) : (
        <ListSearch {...search} />
      )}
      {actions}
    </Group>
  );
}
