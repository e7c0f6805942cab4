import { describe, expect, it } from 'vitest';
import { currentCursor, emailsFromCsv, firstPage, nextPage, pageNumber, previousPage, truncate, visitedPage } from './rules.ts';

describe('members', () => {
  it('keyset paging keeps the cursor of every page visited', () => {
    let p = firstPage();
    expect([pageNumber(p), currentCursor(p)]).toEqual([1, null]);
    p = nextPage(nextPage(p, 'b@x'), 'k@x');
    expect([pageNumber(p), currentCursor(p)]).toEqual([3, 'k@x']);
    p = previousPage(previousPage(previousPage(p)));
    expect([pageNumber(p), currentCursor(p)]).toEqual([1, null]);
  });
  it('the numbered pager jumps back to any page visited, with its cursor', () => {
    const p = nextPage(nextPage(nextPage(firstPage(), 'b@x'), 'k@x'), 'q@x');
    expect([pageNumber(visitedPage(p, 2)), currentCursor(visitedPage(p, 2))]).toEqual([2, 'b@x']);
    expect([pageNumber(visitedPage(p, 1)), currentCursor(visitedPage(p, 1))]).toEqual([1, null]);
  });
  it('reads emails from any CSV layout', () => {
    expect(emailsFromCsv('email,name\n"Ann@X.example",Ann\nbob@y.example;Bob\nann@x.example\nnot an email')).toEqual([
      'ann@x.example',
      'bob@y.example',
    ]);
  });
  it('truncates badges', () => {
    expect(truncate('a'.repeat(31), 30)).toHaveLength(30);
    expect(truncate('short', 30)).toBe('short');
  });
});
