import { describe, expect, test } from 'vitest';
import { pageCount, pageOf } from '../lib/paging.ts';
import { localPaging, pagerPages } from './Pager.tsx';

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

describe('one numbered pager for offset and cursor paging', () => {
  test('offset paging: every page can be opened', () => {
    expect(pagerPages({ page: 2, pages: 5, total: 47 })).toEqual({ count: 5, reachable: 5 });
  });
  test('cursor paging with a total: all pages numbered, those past the next one disabled', () => {
    expect(pagerPages({ page: 1, hasNext: true, total: 214 })).toEqual({ count: 22, reachable: 2 });
    expect(pagerPages({ page: 3, hasNext: true, total: 214 })).toEqual({ count: 22, reachable: 4 });
    expect(pagerPages({ page: 22, hasNext: false, total: 214 })).toEqual({ count: 22, reachable: 22 });
  });
  test('cursor paging without a total (an uncounted search): the pages so far and the next', () => {
    expect(pagerPages({ page: 2, hasNext: true })).toEqual({ count: 3, reachable: 3 });
    expect(pagerPages({ page: 2, hasNext: false })).toEqual({ count: 2, reachable: 2 });
  });
});
