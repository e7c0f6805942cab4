import { describe, expect, it } from 'vitest';
import { currentCursor, emailsFromCsv, firstPage, nextPage, pageNumber, previousPage, truncate } from './rules.ts';

describe('members', () => {
  it('keyset paging keeps the cursor of every page visited', () => {
    let p = firstPage();
    expect([pageNumber(p), currentCursor(p)]).toEqual([1, null]);
    p = nextPage(nextPage(p, 'b@x'), 'k@x');
    expect([pageNumber(p), currentCursor(p)]).toEqual([3, 'k@x']);
    p = previousPage(previousPage(previousPage(p)));
    expect([pageNumber(p), currentCursor(p)]).toEqual([1, null]);
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
