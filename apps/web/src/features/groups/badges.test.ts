import { describe, expect, test } from 'vitest';
import { splitBadges, truncate } from './badges.ts';

describe('badges (spec §9)', () => {
  test('truncate at 30 (60 in the list) with an ellipsis, never longer than the limit', () => {
    const email = 'a-very-long-member-address-indeed@northwind.example';
    expect(truncate(email, 30)).toHaveLength(30);
    expect(truncate(email, 30).endsWith('…')).toBe(true);
    expect(truncate(email, 60)).toBe(email);
    expect(truncate('short', 30)).toBe('short');
  });
  test('five badges, then +n more of the total', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    expect(splitBadges(items)).toEqual({ shown: ['a', 'b', 'c', 'd', 'e'], rest: ['f', 'g'], more: 2 });
    expect(splitBadges(items.slice(0, 5), 40).more).toBe(35);
    expect(splitBadges(['a']).more).toBe(0);
  });
});
