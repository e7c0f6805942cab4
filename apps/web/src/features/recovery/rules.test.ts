import type { AccessContext } from '@latchkey/contracts/client';
import { describe, expect, it } from 'vitest';
import { linkIsLive, recoveryOffMode } from './rules.ts';

describe('recovery rules', () => {
  it('treats only an approved, unexpired link as live', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(linkIsLive({ state: 'approved', link_expires_at: '2026-11-22T10:00:01Z' }, now)).toBe(true);
    expect(linkIsLive({ state: 'approved', link_expires_at: '2026-11-22T10:00:00Z' }, now)).toBe(false);
    expect(linkIsLive({ state: 'pending', link_expires_at: null }, now)).toBe(false);
    expect(linkIsLive({ state: 'approved', link_expires_at: null }, now)).toBe(false);
  });
});

describe('recovery switched off: what the screen offers', () => {
  const ctx = (over: Partial<AccessContext>): AccessContext => ({
    scopes: ['super_admin'],
    teamType: 'organization',
    organizationType: 'enterprise',
    cloud: 'none',
    hubEnabled: true,
    services: { recovery: { enabled: false, status: 0 } },
    ...over,
  });
  it('the switch to a super admin with a Hub', () => {
    expect(recoveryOffMode(ctx({}))).toBe('turn_on');
  });
  it('the way to connect a Hub to a super admin without one: a family owner is that super admin', () => {
    expect(recoveryOffMode(ctx({ hubEnabled: false }))).toBe('connect_hub');
    expect(recoveryOffMode(ctx({ hubEnabled: false, teamType: 'family' }))).toBe('connect_hub');
  });
  it('a super admin to ask, to a recovery agent', () => {
    expect(recoveryOffMode(ctx({ scopes: ['recovery_agent'] }))).toBe('ask');
    expect(recoveryOffMode(ctx({ scopes: ['recovery_agent'], hubEnabled: false }))).toBe('ask');
  });
});
