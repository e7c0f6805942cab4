import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db, Queryable } from './db.ts';
import { openSuccessor } from './refresh-successor.ts';
import { refreshTokens } from './refresh-tokens.ts';
import { createTestDb } from './testing/test-db.ts';
import { hashToken } from './tokens.ts';

const dir = mkdtempSync(join(tmpdir(), 'latchkey-runtime-refresh-'));
writeFileSync(
  join(dir, '0001_sessions.sql'),
  'create table refresh_tokens (token_hash text primary key, session_id text not null, expires_at timestamptz not null, used_at timestamptz, successor text);\n',
);

interface Session {
  id: string;
  live: boolean;
}

const GRACE = 10;

describe('refresh tokens rotate once; a second use ends the session unless it comes within the grace window', () => {
  let db: Db;
  const refresh = refreshTokens('refresh_tokens', 'ended');
  const sessions = new Map<string, Session>();
  const reused: string[] = [];
  const inAMinute = () => new Date(Date.now() + 60_000);
  const steps = {
    find: async (id: string) => sessions.get(id),
    isLive: (s: Session | undefined): s is Session => Boolean(s?.live),
    onReuse: async (s: Session) => {
      reused.push(s.id);
      s.live = false;
    },
    mint: async (s: Session, q: Queryable) => ({ session: s.id, refresh: await refresh.issue(q, s.id, inAMinute()) }),
  };
  const rotate = (token: string, grace = GRACE, using = steps) => refresh.rotate(db, token, grace, using);
  const session = (id: string) => {
    sessions.set(id, { id, live: true });
    return id;
  };
  /** Moves a spent token's rotation `seconds` into the past. */
  const spentAgo = (token: string, seconds: number) =>
    db.query(`update refresh_tokens set used_at = now() - $2::double precision * interval '1 second' where token_hash = $1`, [
      hashToken(token),
      seconds,
    ]);

  beforeAll(async () => {
    db = await createTestDb(dir);
  }, 60_000);
  afterAll(() => db?.close());

  test('only the hash is stored; the token rotates into a successor of its session', async () => {
    const token = await refresh.issue(db, session('a'), inAMinute());
    const stored = await db.query<{ token_hash: string }>('select token_hash from refresh_tokens where session_id = $1', ['a']);
    expect(stored[0]?.token_hash).not.toContain(token);
    const next = await rotate(token);
    expect(next.session).toBe('a');
    expect(next.refresh).not.toBe(token);
  });

  test('a spent token used again after the grace window ends the session and is refused', async () => {
    const token = await refresh.issue(db, session('b'), inAMinute());
    await rotate(token);
    await spentAgo(token, GRACE + 1);
    await expect(rotate(token)).rejects.toMatchObject({ code: 'invalid_grant' });
    expect(reused).toContain('b');
    expect(sessions.get('b')?.live).toBe(false);
  });

  test('within the grace window the same token gets the same successor, and the session lives on', async () => {
    const token = await refresh.issue(db, session('g'), inAMinute());
    const first = await rotate(token);
    await spentAgo(token, GRACE - 2);
    expect(await rotate(token)).toEqual(first);
    expect(reused).not.toContain('g');
    // The successor is a live token of its own.
    expect((await rotate(first.refresh)).session).toBe('g');
  });

  test('two requests racing with one token both get the one successor', async () => {
    const token = await refresh.issue(db, session('e'), inAMinute());
    const [a, b] = await Promise.all([rotate(token), rotate(token)]);
    expect(a).toEqual(b);
    expect(reused).not.toContain('e');
    expect(await db.query('select 1 from refresh_tokens where session_id = $1', ['e'])).toHaveLength(2);
  });

  test('without a grace window two requests racing with one token: one wins, the other ends the session', async () => {
    const token = await refresh.issue(db, session('f'), inAMinute());
    const results = await Promise.allSettled([rotate(token, 0), rotate(token, 0)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(reused).toContain('f');
  });

  test('only the newest rotation is answered again: an older spent token ends the session even within the window', async () => {
    const first = await refresh.issue(db, session('h'), inAMinute());
    const second = await rotate(first);
    await rotate(second.refresh);
    await expect(rotate(first)).rejects.toMatchObject({ code: 'invalid_grant' });
    expect(reused).toContain('h');
  });

  test('the stored successor does not hold its tokens in the clear and opens only with the spent token', async () => {
    const token = await refresh.issue(db, session('s'), inAMinute());
    const next = await rotate(token);
    const [row] = await db.query<{ successor: string }>('select successor from refresh_tokens where token_hash = $1', [
      hashToken(token),
    ]);
    expect(row?.successor).toEqual(expect.any(String));
    expect(row?.successor).not.toContain(next.refresh);
    expect(openSuccessor(token, hashToken(token), row?.successor ?? '')).toEqual(next);
    expect(openSuccessor(next.refresh, hashToken(token), row?.successor ?? '')).toBeNull();
    expect(openSuccessor(token, hashToken(next.refresh), row?.successor ?? '')).toBeNull();
  });

  test('an unknown or expired token is refused without ending anything', async () => {
    await expect(rotate('not-a-token')).rejects.toMatchObject({ code: 'invalid_grant' });
    const token = await refresh.issue(db, session('c'), new Date(Date.now() - 1000));
    await expect(rotate(token)).rejects.toMatchObject({ code: 'invalid_grant' });
    expect(reused).not.toContain('c');
  });

  test('a refusal before spending leaves the token usable for a retry', async () => {
    const token = await refresh.issue(db, session('d'), inAMinute());
    const refuse = { ...steps, beforeSpend: async () => Promise.reject(new Error('server unreachable')) };
    await expect(rotate(token, GRACE, refuse)).rejects.toThrow('server unreachable');
    expect((await rotate(token)).session).toBe('d');
  });
});
