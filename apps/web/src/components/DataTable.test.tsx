import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { type ReactNode, useState } from 'react';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { theme } from '../app/theme.ts';
import { setupI18n } from '../lib/i18n.ts';
import { type Column, DataTable, type Sorting } from './DataTable.tsx';

interface Person {
  id: string;
  name: string;
  age: number;
}

const PEOPLE: Person[] = Array.from({ length: 3 }, (_, i) => ({ id: `p${i}`, name: `Person ${i}`, age: 30 + i }));
const COLUMNS: Column<Person>[] = [
  { key: 'name', header: 'members.col.member', sortable: true, cell: (p) => p.name },
  { key: 'age', header: 'members.col.status', align: 'right', cell: (p) => String(p.age) },
  { key: 'actions', header: 'table.actions', headerHidden: true, cell: () => '⋯' },
];

const wrap = (ui: ReactNode) => render(<MantineProvider theme={theme}>{ui}</MantineProvider>);

/** A screen that keeps the selection, as Members or Sharing do. */
function SelectionHarness() {
  const [selected, setSelected] = useState<string[]>(['elsewhere']);
  return (
    <>
      <output data-testid="selected">{selected.join(',')}</output>
      <DataTable
        columns={COLUMNS}
        rows={PEOPLE}
        rowKey={(p) => p.id}
        testId="t"
        minWidth={400}
        emptyTestId="e"
        empty=""
        selection={{ selected, onChange: setSelected, allLabel: 'Select all', rowLabel: (p) => `Select ${p.name}` }}
      />
    </>
  );
}

/** A screen that sorts, as Audit does. */
function SortingHarness() {
  const [sort, setSort] = useState<Omit<Sorting, 'onSort'>>({ key: 'age', desc: false });
  return (
    <DataTable
      columns={COLUMNS}
      rows={PEOPLE}
      rowKey={(p) => p.id}
      testId="t"
      minWidth={400}
      emptyTestId="e"
      empty=""
      sort={{ ...sort, onSort: (key) => setSort((s) => ({ key, desc: s.key === key ? !s.desc : false })) }}
    />
  );
}

beforeAll(async () => {
  await setupI18n();
});
afterEach(cleanup);

describe('DataTable', () => {
  test('skeleton rows while loading, then the rows with the screen’s test ids', () => {
    const props = {
      columns: COLUMNS,
      rowKey: (p: Person) => p.id,
      rowProps: (p: Person) => ({ 'data-testid': 'person-row', 'data-name': p.name }),
      testId: 'people-table',
      minWidth: 400,
      emptyTestId: 'people-empty',
      empty: 'Nobody yet.',
    };
    const { rerender } = wrap(<DataTable {...props} rows={undefined} />);
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(5);
    rerender(
      <MantineProvider theme={theme}>
        <DataTable {...props} rows={PEOPLE} />
      </MantineProvider>,
    );
    expect(screen.queryAllByTestId('skeleton-row')).toHaveLength(0);
    const rows = screen.getAllByTestId('person-row');
    expect(rows.map((r) => r.getAttribute('data-name'))).toEqual(['Person 0', 'Person 1', 'Person 2']);
    // The actions header is there for screen readers, with the translated name.
    expect(screen.getByRole('columnheader', { name: 'Actions' })).toBeTruthy();
  });

  test('an empty list shows the screen’s message; a failed one shows Retry instead of the table', () => {
    const { rerender } = wrap(
      <DataTable
        columns={COLUMNS}
        rows={[]}
        rowKey={(p) => p.id}
        testId="t"
        minWidth={400}
        emptyTestId="people-empty"
        empty="Nobody yet."
      />,
    );
    expect(screen.getByTestId('people-empty').textContent).toBe('Nobody yet.');
    let retried = 0;
    rerender(
      <MantineProvider theme={theme}>
        <DataTable
          columns={COLUMNS}
          rows={undefined}
          rowKey={(p) => p.id}
          testId="t"
          minWidth={400}
          emptyTestId="people-empty"
          empty="Nobody yet."
          error
          onRetry={() => retried++}
        />
      </MantineProvider>,
    );
    expect(screen.queryByTestId('t')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /retry/i }));
    expect(retried).toBe(1);
  });

  test('select all takes this page’s rows and keeps other pages’ selections; a row checkbox toggles one', () => {
    wrap(<SelectionHarness />);
    const selected = () => screen.getByTestId('selected').textContent;
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Person 1' }));
    expect(selected()).toBe('elsewhere,p1');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(selected()).toBe('elsewhere,p1,p0,p2');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(selected()).toBe('elsewhere');
  });

  test('a sortable header says its direction and asks the screen to sort', () => {
    wrap(<SortingHarness />);
    const header = () => screen.getByRole('columnheader', { name: /Member/ });
    expect(header().getAttribute('aria-sort')).toBe('none');
    fireEvent.click(within(header()).getByRole('button'));
    expect(header().getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(header()).getByRole('button'));
    expect(header().getAttribute('aria-sort')).toBe('descending');
  });

  test('the pager shows the range and names its arrows; cursor paging moves to the neighbours only', () => {
    const pages: number[] = [];
    wrap(
      <DataTable
        columns={COLUMNS}
        rows={PEOPLE}
        rowKey={(p) => p.id}
        testId="t"
        minWidth={400}
        emptyTestId="e"
        empty=""
        pager={{ page: 2, hasNext: false, total: 13, shown: 3, onPage: (p) => pages.push(p), rangeTestId: 'people-range' }}
      />,
    );
    expect(screen.getByTestId('people-range').textContent).toBe('11–13 of 13');
    expect(screen.getByText('Page 2')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(pages).toEqual([1]);
  });
});
