import { Checkbox, Table, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useTranslation } from '../lib/use-translation.ts';
import type { Column, Selection, Sorting } from './data-table-types.ts';

export const toggle = (list: readonly string[], id: string): string[] =>
  list.includes(id) ? list.filter((v) => v !== id) : [...list, id];

/** Selects or clears this page's rows, keeping selections made on other pages. */
export function SelectAll<T>({ selection, ids }: { selection: Selection<T>; ids: string[] }) {
  const picked = ids.filter((id) => selection.selected.includes(id)).length;
  const all = ids.length > 0 && picked === ids.length;
  return (
    <Checkbox
      aria-label={selection.allLabel}
      checked={all}
      indeterminate={picked > 0 && !all}
      onChange={() =>
        selection.onChange(
          all ? selection.selected.filter((id) => !ids.includes(id)) : [...new Set([...selection.selected, ...ids])],
        )
      }
    />
  );
}

export function HeaderCell<T>({ column: c, sort }: { column: Column<T>; sort: Sorting | undefined }) {
  const { t } = useTranslation();
  const label = t(c.header);
  if (c.headerHidden)
    return (
      <Table.Th w={c.width} visibleFrom={c.visibleFrom}>
        <VisuallyHidden>{label}</VisuallyHidden>
      </Table.Th>
    );
  if (!c.sortable || !sort)
    return (
      <Table.Th w={c.width} ta={c.align} visibleFrom={c.visibleFrom}>
        {label}
      </Table.Th>
    );
  const active = sort.key === c.key;
  return (
    <Table.Th
      w={c.width}
      ta={c.align}
      visibleFrom={c.visibleFrom}
      aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : 'none'}
    >
      <UnstyledButton onClick={() => sort.onSort(c.key)} fw={600} fz="sm" style={{ whiteSpace: 'nowrap' }}>
        {label} <span aria-hidden>{active ? (sort.desc ? '↓' : '↑') : '↕'}</span>
      </UnstyledButton>
    </Table.Th>
  );
}
