import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from './db.ts';
import { refreshTokens } from './refresh-tokens.ts';
import { createTestDb } from './testing/test-db.ts';

const dir = mkdtempSync(join(tmpdir(), 'latchkey-runtime-refresh-'));
writeFileSync(
  join(dir, '0001_sessions.sql'),
  'create table refresh_tokens (token_hash text primary key, session_id text not null, expires_at timestamptz not null, used_at timestamptz);\n',
);

interface Session {
  id: string;
  live: boolean;
}

describe('refresh tokens rotate once, and a second use ends the session', () => {
  let db: Db;
  const refresh = refreshTokens('refresh_tokens', 'ended');
  const sessions = new Map<string, Session>();
  const reused: string[] = [];
  const steps = {
    find: async (id: string) => sessions.get(id),
    isLive: (s: Session | undefined): s is Session => Boolean(s?.live),
    onReuse: async (s: Session) => {
      reused.push(s.id);
      s.live = false;
    },
  };
  const session = (id: string) => {
    sessions.set(id, { id, live: true });
    return id;
  };
  const inAMinute = () => new Date(Date.now() + 60_000);

  beforeAll(async () => {
    db = await createTestDb(dir);
  }, 60_000);
  afterAll(() => db?.close());

  test('only the hash is stored; the token spends once and answers its session', async () => {
    const token = await refresh.issue(db, session('a'), inAMinute());
    const stored = await db.query<{ token_hash: string }>('select token_hash from refresh_tokens where session_id = $1', ['a']);
    expect(stored[0]?.token_hash).not.toContain(token);
    expect((await refresh.spend(db, token, steps)).id).toBe('a');
  });

  test('a spent token used again ends the session and is refused', async () => {
    const token = await refresh.issue(db, session('b'), inAMinute());
    await refresh.spend(db, token, steps);
    await expect(refresh.spend(db, token, steps)).rejects.toMatchObject({ code: 'invalid_grant' });
    expect(reused).toContain('b');
    expect(sessions.get('b')?.live).toBe(false);
  });

  test('an unknown or expired token is refused without ending anything', async () => {
    await expect(refresh.spend(db, 'not-a-token', steps)).rejects.toMatchObject({ code: 'invalid_grant' });
    const token = await refresh.issue(db, session('c'), new Date(Date.now() - 1000));
    await expect(refresh.spend(db, token, steps)).rejects.toMatchObject({ code: 'invalid_grant' });
    expect(reused).not.toContain('c');
  });

  test('a refusal before spending leaves the token usable for a retry', async () => {
    const token = await refresh.issue(db, session('d'), inAMinute());
    const refuse = { ...steps, beforeSpend: async () => Promise.reject(new Error('server unreachable')) };
    await expect(refresh.spend(db, token, refuse)).rejects.toThrow('server unreachable');
    expect((await refresh.spend(db, token, steps)).id).toBe('d');
  });

  test('two requests racing with one token: one wins, the other ends the session', async () => {
    const token = await refresh.issue(db, session('e'), inAMinute());
    const results = await Promise.allSettled([refresh.spend(db, token, steps), refresh.spend(db, token, steps)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(reused).toContain('e');
  });
});
