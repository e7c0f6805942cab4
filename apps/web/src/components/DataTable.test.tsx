import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { type ReactNode, useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { setupI18n } from '../lib/i18n.ts';
import { theme } from '../lib/theme.ts';
import { CARD_QUERY, type Column, DataTable, type Sorting } from './DataTable.tsx';
import { Pager } from './Pager.tsx';

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

  test('the one numbered pager: the range, named arrows; cursor paging opens the pages so far, not past the next', () => {
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
        pager={{ page: 2, hasNext: true, total: 47, shown: 10, onPage: (p) => pages.push(p), rangeTestId: 'people-range' }}
      />,
    );
    expect(screen.getByTestId('people-range').textContent).toBe('11–20 of 47');
    // Numbered like every other list: page 2 of 5 is the current one; 4 and 5 wait for their cursors.
    expect(screen.getByRole('button', { name: '2' }).getAttribute('aria-current')).toBe('page');
    expect((screen.getByRole('button', { name: '4' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: '5' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    fireEvent.click(screen.getByRole('button', { name: '3' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(pages).toEqual([1, 3, 3]);
  });

  test('a count that stopped at its cap reads as "at least"', () => {
    wrap(<Pager page={1} pages={200} total={10_000} totalCapped shown={3} onPage={() => {}} />);
    expect(screen.getByTestId('pager-range').textContent).toBe('1–3 of 10,000+');
  });
});

describe('DataTable below 768 px (a phone is a first-class screen)', () => {
  const realMatchMedia = window.matchMedia;
  beforeAll(() => {
    // The phone's width: only the card query matches.
    window.matchMedia = ((query: string) => ({
      ...realMatchMedia.call(window, query),
      matches: query === CARD_QUERY,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })) as typeof window.matchMedia;
  });
  afterAll(() => {
    window.matchMedia = realMatchMedia;
  });

  test('each row is a card: the headline and its actions on top, the other columns as label and value', () => {
    const opened: string[] = [];
    wrap(
      <DataTable
        columns={[
          ...COLUMNS.slice(0, 2),
          { key: 'note', header: 'members.col.devices', visibleFrom: 'md', cell: () => 'desktop only' },
          {
            key: 'actions',
            header: 'table.actions',
            headerHidden: true,
            cell: (p: Person) => (
              <button type="button" onClick={() => opened.push(`menu ${p.id}`)}>
                Actions for {p.name}
              </button>
            ),
          },
        ]}
        rows={PEOPLE}
        rowKey={(p) => p.id}
        rowProps={(p) => ({ 'data-testid': 'person-row', 'data-name': p.name, onClick: () => opened.push(p.id) })}
        testId="people"
        minWidth={900}
        emptyTestId="e"
        empty=""
        selection={{ selected: [], onChange: () => {}, allLabel: 'Select all', rowLabel: (p) => `Select ${p.name}` }}
      />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByTestId('people').getAttribute('data-layout')).toBe('cards');
    const cards = screen.getAllByTestId('person-row');
    expect(cards.map((c) => c.getAttribute('data-name'))).toEqual(['Person 0', 'Person 1', 'Person 2']);
    const first = cards[0] as HTMLElement;
    // The headline, the label and value of the other column, the row's actions and checkbox.
    expect(first.textContent).toContain('Person 0');
    expect(within(first).getByText('Status').tagName).toBe('DT');
    expect(within(first).getByText('30').closest('dd')).toBeTruthy();
    expect(within(first).queryByText('desktop only')).toBeNull();
    expect(within(first).getByRole('checkbox', { name: 'Select Person 0' })).toBeTruthy();
    // A tap on the actions is not a tap on the card; a tap on the card opens the row.
    fireEvent.click(within(first).getByRole('button', { name: 'Actions for Person 0' }));
    expect(opened).toEqual(['menu p0']);
    fireEvent.click(first);
    expect(opened).toEqual(['menu p0', 'p0']);
  });

  test('cards of a sortable list have a sort control: a column to sort by and the direction', () => {
    wrap(<SortingHarness />);
    const select = screen.getByLabelText('Sort by') as HTMLSelectElement;
    // The current sort (age) is not a sortable column: nothing chosen, no direction to flip.
    expect(select.value).toBe('');
    expect([...select.options].map((o) => o.textContent)).toEqual(['—', 'Member']);
    const direction = screen.getByTestId('card-sort-direction');
    expect(direction.hasAttribute('disabled')).toBe(true);
    fireEvent.change(select, { target: { value: 'name' } });
    expect(select.value).toBe('name');
    expect(direction.getAttribute('data-direction')).toBe('ascending');
    fireEvent.click(direction);
    expect(direction.getAttribute('data-direction')).toBe('descending');
    expect(direction.getAttribute('aria-label')).toBe('Descending; press to sort ascending');
  });

  test('a list without sortable columns has no sort control', () => {
    wrap(<SelectionHarness />);
    expect(screen.queryByLabelText('Sort by')).toBeNull();
  });
});
