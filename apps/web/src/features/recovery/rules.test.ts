import { describe, expect, it } from 'vitest';
import { linkIsLive } from './rules.ts';

describe('recovery rules', () => {
  it('treats only an approved, unexpired link as live', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(linkIsLive({ state: 'approved', link_expires_at: '2026-11-22T10:00:01Z' }, now)).toBe(true);
    expect(linkIsLive({ state: 'approved', link_expires_at: '2026-11-22T10:00:00Z' }, now)).toBe(false);
    expect(linkIsLive({ state: 'pending', link_expires_at: null }, now)).toBe(false);
    expect(linkIsLive({ state: 'approved', link_expires_at: null }, now)).toBe(false);
  });
});
