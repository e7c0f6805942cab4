import { describe, expect, test } from 'vitest';
import { pageCount, pageOf } from '../lib/paging.ts';
import { localPaging } from './Pager.tsx';

describe('local paging', () => {
  test('pages of 10', () => {
    const items = Array.from({ length: 23 }, (_, i) => i);
    expect(pageOf(items, 3)).toEqual([20, 21, 22]);
    expect(pageCount(23)).toBe(3);
    expect(pageCount(0)).toBe(1);
  });
  test('rows and pager of a fetched list; none while it loads or when it is empty', () => {
    const onPage = () => {};
    const items = Array.from({ length: 23 }, (_, i) => i);
    const { rows, pager } = localPaging(items, 3, onPage);
    expect(rows).toEqual([20, 21, 22]);
    expect(pager).toEqual({ page: 3, pages: 3, total: 23, shown: 3, onPage });
    expect(localPaging(undefined, 1, onPage)).toEqual({ rows: undefined, pager: undefined });
    expect(localPaging([], 1, onPage)).toEqual({ rows: [], pager: undefined });
  });
});
