import { describe, expect, it } from 'vitest';
import { addressHasFilters, epochToDay, fromSavedFilters, readAddress, writeAddress } from './address.ts';
import { dayToEpoch } from './filters.ts';

describe("the event log's filters in the address", () => {
  it('writes and reads back every filter, lists repeated, and a saved search', () => {
    const address = {
      search: 'vault & more',
      picked: {
        activities: ['auth.sign_in', 'group.created'],
        actors: ['ava@northwind.example'],
        components: [],
        ips: ['203.0.113.7'],
      },
      from: '2026-11-01',
      to: '2026-11-29',
      saved: '0b6f4f2c-8a57-4c11-9d0e-3f6a1c2b9e10',
    };
    const query = writeAddress(address);
    expect(query).toContain('activity=auth.sign_in&activity=group.created');
    expect(readAddress(`?${query}`)).toEqual(address);
  });

  it('ignores days that are not days, and an empty address has no filters', () => {
    const read = readAddress('?from=yesterday&to=2026-13');
    expect(read).toMatchObject({ from: '', to: '', saved: null });
    expect(addressHasFilters(read)).toBe(false);
    expect(addressHasFilters(readAddress('?saved=abc'))).toBe(false);
    expect(addressHasFilters(readAddress('?component=groups'))).toBe(true);
    expect(writeAddress(readAddress(''))).toBe('');
  });

  it("turns a saved search's epoch dates back into the days the screen picked", () => {
    const start = dayToEpoch('2026-03-29', false);
    const end = dayToEpoch('2026-03-30', true);
    expect(epochToDay(start)).toBe('2026-03-29');
    expect(epochToDay(end)).toBe('2026-03-30');
    expect(epochToDay(null)).toBe('');
    expect(
      fromSavedFilters({
        ip_addresses: ['198.51.100.1'],
        dates: { start_timestamp: start, end_timestamp: null },
        search_value: 'x',
      }),
    ).toEqual({
      search: 'x',
      picked: { activities: [], actors: [], components: [], ips: ['198.51.100.1'] },
      from: '2026-03-29',
      to: '',
    });
  });
});
