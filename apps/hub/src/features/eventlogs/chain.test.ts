import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, eventHash, GENESIS_HASH } from './chain.ts';

describe("the hash chain's canonical form", () => {
  it('hashes the canonical form: key order of detail does not matter, any field does', () => {
    const base = {
      team_slug: 't',
      seq: 1,
      id: 'x',
      actor: 'a',
      actor_type: 'admin',
      activity: 'x.y',
      component: 'c',
      target: '',
      ip: '',
      device: '',
      occurred_at: '2026-01-01T00:00:00.000Z',
      recorded_at: '2026-01-01T00:00:00.000Z',
      outcome: 'success',
      detail: { a: 1, b: 2 },
      prev_hash: GENESIS_HASH,
    };
    expect(eventHash({ ...base, detail: { b: 2, a: 1 } })).toBe(eventHash(base));
    expect(eventHash({ ...base, ip: '1.2.3.4' })).not.toBe(eventHash(base));
  });

  it('is sha256 of the documented canonical array, whatever the fields hold (what a third party re-computes)', () => {
    const e = {
      team_slug: 'north"wind',
      seq: 9_007_199,
      id: '5b0c8f5e-2d2a-4a51-9d1e-0d6f1f0a7a11',
      actor: 'zoë\\@example\n',
      actor_type: 'admin',
      activity: 'group.created',
      component: 'groups',
      target: 'Group \u2028 "x"',
      ip: '10.0.0.1',
      device: 'Chrome',
      occurred_at: '2026-01-01T00:00:00.000Z',
      recorded_at: '2026-01-01T00:00:01.000Z',
      outcome: 'failure',
      detail: { z: [1, { b: null, a: 'é' }], a: true },
      prev_hash: GENESIS_HASH,
    };
    const fields = [e.team_slug, e.seq, e.id, e.actor, e.actor_type, e.activity, e.component, e.target, e.ip, e.device];
    const canonical = canonicalJson([...fields, e.occurred_at, e.recorded_at, e.outcome, e.detail, e.prev_hash]);
    expect(eventHash(e)).toBe(createHash('sha256').update(`latchkey-event-v1\n${canonical}`).digest('hex'));
  });
});
