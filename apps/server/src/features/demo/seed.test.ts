import { generateKeyPairSync } from 'node:crypto';
import { type Db, publicJwkOf } from '@latchkey/runtime';
import { createTestDb } from '@latchkey/runtime/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MIGRATIONS_DIR } from '../../db/migrations-dir.ts';
import { verifyPassword } from '../../platform/passwords.ts';
import { APPROVALS_DEMO, seedApprovalsDemo } from './approvals.demo.ts';
import { DEMO_ADMINS, DEMO_PASSWORD, seedDemo } from './seed.ts';

let db: Db;
beforeAll(async () => {
  db = await createTestDb(MIGRATIONS_DIR);
});
afterAll(() => db?.close());

const count = async (sql: string) => (await db.query<{ n: number }>(`select count(*)::int as n from ${sql}`))[0]?.n;

test('seeds once: a second run changes nothing', async () => {
  expect(
    await seedDemo(db, {
      hubUrl: 'http://127.0.0.1:1',
      hubKey: JSON.stringify(publicJwkOf(generateKeyPairSync('ed25519').privateKey)),
    }),
  ).toBe(true);
  expect(
    await seedDemo(db, {
      hubUrl: 'http://127.0.0.1:1',
      hubKey: JSON.stringify(publicJwkOf(generateKeyPairSync('ed25519').privateKey)),
    }),
  ).toBe(false);
  expect(await count('users')).toBe(5);
  expect(await count('teams')).toBe(2);
  // 250 at Northwind, 3 in the family (features/members/members.demo.ts).
  expect(await count('members')).toBe(253);
  expect(await count('team_admins')).toBe(6);
  expect(await count('hubs')).toBe(1);
});

test('the demo admins and their scopes', async () => {
  const rows = await db.query<{ email: string; slug: string; scopes: string[] }>(
    `select u.email, t.slug, ta.scopes from team_admins ta join users u on u.id = ta.user_id join teams t on t.id = ta.team_id
     order by u.email, t.slug`,
  );
  expect(rows).toEqual(
    [
      { email: DEMO_ADMINS.admin, slug: 'northwind', scopes: ['admin'] },
      { email: DEMO_ADMINS.superAdmin, slug: 'northwind', scopes: ['super_admin'] },
      { email: DEMO_ADMINS.integrator, slug: 'northwind', scopes: ['integrator'] },
      { email: DEMO_ADMINS.recoveryAgent, slug: 'northwind', scopes: ['recovery_agent'] },
      { email: DEMO_ADMINS.twoTeams, slug: 'northwind', scopes: ['admin'] },
      { email: DEMO_ADMINS.twoTeams, slug: 'sam-family', scopes: ['super_admin'] },
    ].sort((a, b) => (a.email + a.slug).localeCompare(b.email + b.slug)),
  );
  const [user] = await db.query<{ password_hash: string }>('select password_hash from users where email = $1', [
    DEMO_ADMINS.superAdmin,
  ]);
  expect(user?.password_hash).toMatch(/^\$argon2id\$/);
  expect(await verifyPassword(user?.password_hash ?? null, DEMO_PASSWORD)).toBe(true);
  expect(await verifyPassword(user?.password_hash ?? null, 'wrong')).toBe(false);
});

test('members: unique emails, every usage state, some gone, groups filled', async () => {
  expect(await count('(select distinct email from members) x')).toBe(253);
  const usage = await db.query<{ usage: string }>('select distinct usage from members order by usage');
  expect(usage.map((u) => u.usage)).toEqual(['active', 'inactive', 'unresponsive']);
  const gone = await count('members where deboarded_at is not null');
  expect(gone).toBeGreaterThan(0);
  expect(gone).toBeLessThan(250);
  expect(await count('members where deboarded_at is not null and deboarded_at < onboarded_at')).toBe(0);
  expect(await count('groups')).toBe(6);
  expect(await count('(select group_id from group_members group by group_id) x')).toBe(6);
});

test('Fourth Coffee, for the four-eyes walk-through: two super admins and a team policy, seeded once', async () => {
  await db.transaction((tx) => seedApprovalsDemo(tx));
  await db.transaction((tx) => seedApprovalsDemo(tx));
  const admins = await db.query<{ email: string; scopes: string[] }>(
    `select u.email, ta.scopes from team_admins ta join users u on u.id = ta.user_id join teams t on t.id = ta.team_id
     where t.slug = $1 order by u.email`,
    [APPROVALS_DEMO.team.slug],
  );
  expect(admins).toEqual([
    { email: APPROVALS_DEMO.ana.email, scopes: ['super_admin'] },
    { email: APPROVALS_DEMO.ben.email, scopes: ['super_admin'] },
  ]);
  expect(await count(`team_policies p join teams t on t.id = p.team_id where t.slug = '${APPROVALS_DEMO.team.slug}'`)).toBe(1);
});
