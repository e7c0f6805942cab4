// Break-glass at the operator's command line, run as the operator runs it (a child process through
// tsx) against the server's database: an embedded PGlite data directory, or PostgreSQL with
// TEST_DB=postgres. A team whose only super admin waits for an approval nobody can give.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Db, openDb } from '@latchkey/runtime';
import { createPostgresDb } from '@latchkey/runtime/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildServer } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { MIGRATIONS_DIR } from '../../db/migrations-dir.ts';

const onPostgres = process.env.TEST_DB === 'postgres';
const ROOT = join(import.meta.dirname, '../../../../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const CLI = join(ROOT, 'apps/server/src/cli.ts');

const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-approvals-cli-'));
let pg: (Db & { url: string }) | undefined;
const env = () => ({
  PATH: process.env.PATH ?? '',
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
  PUBLIC_URL: 'http://127.0.0.1:9',
  ...(pg ? { DATABASE_URL: pg.url } : {}),
});

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(TSX, [CLI, ...args], { env: env(), timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

beforeAll(async () => {
  if (onPostgres) pg = await createPostgresDb(MIGRATIONS_DIR);
}, 60_000);
afterAll(async () => pg?.close());

/** Set-up: the team's policy asks for two people, and its only super admin's requests wait (as the server's gate records them). */
async function lockedOutRequests(db: Db): Promise<{ approve: string; clear: string }> {
  const [team] = await db.query<Record<string, unknown>>("select * from teams where slug = 'solo'");
  const [admin] = await db.query<{ id: string }>("select id from users where email = 'only@solo.example'");
  await db.query(
    `insert into approval_policies (team_id, policy) values ($1, '{"enabled":true,"actions":["admins.add"],"approvers":2,"expiry_hours":24,"self_elevate_scopes":[]}')`,
    [team?.id],
  );
  const requester = { userId: admin?.id, email: 'only@solo.example', sessionId: '', scopes: ['super_admin'], team, access: {} };
  const ask = async (email: string) => {
    const [row] = await db.query<{ id: string }>(
      `insert into approval_requests (team_id, action, call, payload, payload_hash, requester_id, requester, requester_email,
         summary, approvers_required, apply, expires_at)
       values ($1, 'admins.add', 'adminAdd', $2, 'set-up', $3, $4, 'only@solo.example', $5, 2, 'on_approval', now() + interval '1 day')
       returning id`,
      [
        team?.id,
        JSON.stringify({ action: 'add_admin', email, scopes: ['super_admin'] }),
        admin?.id,
        JSON.stringify(requester),
        `Make ${email} an administrator`,
      ],
    );
    return row?.id as string;
  };
  return { approve: await ask('second@solo.example'), clear: await ask('mistake@solo.example') };
}

describe(`break-glass at the command line (${onPostgres ? 'PostgreSQL' : 'PGlite data directory'})`, () => {
  test('the operator lists, approves with a reason (the server then runs it) and clears, each in the event log', async () => {
    const made = await cli(
      'create-team',
      '--slug',
      'solo',
      '--name',
      'Solo',
      '--kind',
      'organization',
      '--admin',
      'only@solo.example',
    );
    expect(made.code, made.stderr).toBe(0);
    const db = pg ?? (await openDb({ dataDir }));
    const ids = await lockedOutRequests(db);
    if (!onPostgres) await db.close();

    const listed = await cli('approvals', '--team', 'solo');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`${ids.approve}  admins.add  by only@solo.example`);
    expect(listed.stdout).toContain(ids.clear);
    // A reason must say something (refused before the database is opened).
    const terse = await cli('approval-approve', '--team', 'solo', '--id', ids.approve, '--reason', 'ok');
    expect(terse.code).toBe(2);
    expect(terse.stderr).toContain('--reason must say why');

    const approved = await cli(
      'approval-approve',
      '--team',
      'solo',
      '--id',
      ids.approve,
      '--reason',
      'Only admin on leave; ticket OPS-7',
    );
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('the server runs it');
    const cleared = await cli('approval-clear', '--team', 'solo', '--id', ids.clear, '--reason', 'asked by mistake');
    expect(cleared.code, cleared.stderr).toBe(0);

    // The server's workers run the approved request, as its requester.
    const db2 = pg ?? (await openDb({ dataDir }));
    const app = await buildServer({
      config: loadConfig({ ...env(), WEB_DIST: join(tmpdir(), 'latchkey-no-web-dist') }),
      db: db2,
    });
    try {
      const statusOf = async (id: string) =>
        (await db2.query<{ status: string }>('select status from approval_requests where id = $1', [id]))[0]?.status;
      const deadline = Date.now() + 20_000;
      while ((await statusOf(ids.approve)) !== 'applied' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(await statusOf(ids.approve)).toBe('applied');
      expect(await statusOf(ids.clear)).toBe('rejected');
      const admins = await db2.query<{ email: string }>(
        `select u.email from team_admins a join users u on u.id = a.user_id
           where a.team_id = (select id from teams where slug = 'solo') order by u.email`,
      );
      expect(admins.map((a) => a.email)).toEqual(['only@solo.example', 'second@solo.example']);
      const events = await db2.query<{ activity: string; actor: string; reason: string | null }>(
        `select event->>'activity' as activity, event->>'actor' as actor, event->'detail'->>'reason' as reason
           from event_outbox where event->'detail'->>'request_id' = any($1::text[]) order by seq`,
        [[ids.approve, ids.clear]],
      );
      expect(events).toEqual([
        { activity: 'approval.operator_approved', actor: 'operator', reason: 'Only admin on leave; ticket OPS-7' },
        { activity: 'approval.operator_cleared', actor: 'operator', reason: 'asked by mistake' },
        { activity: 'approval.applied', actor: 'only@solo.example', reason: null },
      ]);
    } finally {
      await app.close();
      if (!onPostgres) await db2.close();
    }
  }, 420_000);
});
