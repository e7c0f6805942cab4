import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HubTokens, LoginSuccess } from '@latchkey/contracts';
import { accessTokens, type Db, hashToken, moveLegacyKeys } from '@latchkey/runtime';
import { createTestDb } from '@latchkey/runtime/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildServer } from '../../app.ts';
import { type Config, loadConfig } from '../../config.ts';
import { MIGRATIONS_DIR } from '../../db/migrations-dir.ts';
import { loadServerKeys } from '../../platform/keys.ts';
import { currentTotp } from '../../platform/totp.ts';
import { type Harness, startHarness } from '../../test/harness.ts';
import { loadHubTokenSecret } from '../../test/hub-process.ts';
import { DEMO_ADMINS, DEMO_PASSWORD } from '../demo/index.ts';

const A = '/api/v1/console/auth';
const now = () => Math.floor(Date.now() / 1000);
const EMAIL = DEMO_ADMINS.admin;

let h: Harness;
let totpSecret: string;
let backupCodes: string[];
/** Everything a sign-in handed out, which a dump must not contain. */
const handedOut: string[] = [];

/** Every row of every table, as text: what a database dump holds. */
async function dump(db: Db): Promise<string> {
  const tables = await db.query<{ name: string }>("select tablename as name from pg_tables where schemaname = 'public'");
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = await db.query<{ row: string }>(`select t::text as row from "${name}" t`);
    parts.push(`${name}: ${rows.map((r) => r.row).join('\n')}`);
  }
  return parts.join('\n');
}

const backupSignIn = (recovery_code: string, server = h) =>
  server.post(`${A}/verify/recovery/code/`, { email: EMAIL, password: DEMO_PASSWORD, team_slug: 'northwind', recovery_code });

beforeAll(async () => {
  h = await startHarness({ hub: true });
  // An emailed-code sign-in, then the authenticator switched on (backup codes issued)…
  const first = await h.signIn(EMAIL);
  handedOut.push(first.token.access, first.token.refresh_token);
  const setup = await h.post<{ secret: string }>(`${A}/totp/register/`, {}, first.token.access);
  totpSecret = setup.body.secret;
  const done = await h.post<{ recovery_codes: string[] }>(
    `${A}/totp/register/verify/`,
    { totp: await currentTotp(totpSecret) },
    first.token.access,
  );
  backupCodes = done.body.recovery_codes;
  // …a sign-in with it, one with a backup code, and the Hub session the console opens.
  const totp = await h.post(`${A}/verify/totp/`, {
    email: EMAIL,
    password: DEMO_PASSWORD,
    team_slug: 'northwind',
    totp: await currentTotp(totpSecret, now() + 30),
  });
  expect(totp.status).toBe(200);
  const backup = await backupSignIn(backupCodes[0] as string);
  expect(backup.status).toBe(200);
  const signedIn = LoginSuccess.parse(backup.body);
  handedOut.push(signedIn.token.access, signedIn.token.refresh_token);
  const aux = signedIn.aux_code;
  if (!aux) throw new Error('no aux code');
  const hubSession = await fetch(`${aux.server_url}/auth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${aux.access}` },
    body: JSON.stringify({ team_slug: 'northwind' }),
  });
  expect(hubSession.status).toBe(200);
  const hubTokens = (await hubSession.json()) as HubTokens;
  handedOut.push(hubTokens.access, hubTokens.refresh);
});
afterAll(() => h?.close());

describe('a database dump alone reveals nothing usable', () => {
  test('no key, token, authenticator secret or backup code of either program is in any row', async () => {
    const hub = h.hub;
    if (!hub) throw new Error('no hub');
    const text = `${await dump(h.db)}\n${await dump(hub.db)}`;
    const keys = loadServerKeys(h.config);
    const secrets = {
      tokenKey: keys.token,
      sealingKey: keys.sealing[0],
      codeKey: keys.codes[0],
      hubTokenKey: loadHubTokenSecret(hub.config),
      totpSecret,
      ...Object.fromEntries(handedOut.map((t, i) => [`token${i}`, t])),
    };
    const [user] = await h.db.query<{ id: string }>('select id from users where email = $1', [EMAIL]);
    backupCodes.forEach((code, i) => {
      const bare = code.replace('-', '');
      Object.assign(secrets, {
        [`backup${i}`]: code,
        [`backupBare${i}`]: bare,
        // The unkeyed hash stored before 0014: a dump of it is reversed by trying every code.
        [`backupUnkeyed${i}`]: hashToken(`recovery:${user?.id}:${bare}`),
      });
    });
    for (const [name, value] of Object.entries(secrets)) {
      expect(value, name).toBeTruthy();
      expect(text.includes(value as string), `${name} is in the dump`).toBe(false);
    }
    // Only ciphertext of the authenticator secret, and only keyed hashes of codes.
    const [row] = await h.db.query<{ totp_secret: string }>('select totp_secret from users where email = $1', [EMAIL]);
    expect(row?.totp_secret).toMatch(/^v1\./);
    const stored = await h.db.query<{ code_hash: string }>(
      'select code_hash from recovery_codes union all select code_hash from email_codes',
    );
    expect(stored.length).toBeGreaterThan(10);
    for (const { code_hash } of stored) expect(code_hash).toMatch(/^k1\./);
  });

  test('an emailed code is stored keyed: its unkeyed hash is not what the row holds', async () => {
    await h.post(`${A}/login/`, { email: DEMO_ADMINS.integrator, team_slug: 'northwind' });
    await h.post(`${A}/verify/password/`, { email: DEMO_ADMINS.integrator, password: DEMO_PASSWORD, team_slug: 'northwind' });
    const code = await h.waitForCode(DEMO_ADMINS.integrator);
    const [row] = await h.db.query<{ code_hash: string; user_id: string; team_id: string }>(
      `select c.code_hash, c.user_id, c.team_id from email_codes c join users u on u.id = c.user_id
        where u.email = $1 order by c.created_at desc limit 1`,
      [DEMO_ADMINS.integrator],
    );
    if (!row) throw new Error('no email code');
    expect(row.code_hash).toMatch(/^k1\./);
    expect(row.code_hash).not.toBe(hashToken(`${row.user_id}:${row.team_id}:${code}`));
    expect(row.code_hash).not.toContain(code);
  });
});

describe('keys live in configuration or 0600 files, never the database', () => {
  test('generated key files are mode 0600 in <DATA_DIR>/keys, for the server and the Hub', () => {
    const hub = h.hub;
    if (!hub) throw new Error('no hub');
    for (const dir of [join(h.config.DATA_DIR, 'keys'), join(hub.config.DATA_DIR, 'keys')]) {
      const files = readdirSync(dir);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) expect((statSync(join(dir, file)).mode & 0o777).toString(8), file).toBe('600');
    }
    expect(readdirSync(join(h.config.DATA_DIR, 'keys')).sort()).toEqual(['code_hash_key', 'sealing_key', 'token_secret']);
    expect(readdirSync(join(hub.config.DATA_DIR, 'keys')).sort()).toEqual(['hub_sealing_key', 'hub_token_secret']);
  });

  test('keys given by the environment are used, and no key file is written', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-env-keys-'));
    const given = { TOKEN_SECRET: 't'.repeat(40), SEALING_KEY: 's'.repeat(40), CODE_HASH_KEY: 'c'.repeat(40) };
    const config: Config = { ...h.config, ...given, DATA_DIR: dataDir };
    const app = await buildServer({ config, db: h.db });
    try {
      const keys = loadServerKeys(config);
      expect(keys).toEqual({ token: given.TOKEN_SECRET, sealing: [given.SEALING_KEY], codes: [given.CODE_HASH_KEY] });
      // A token signed with the given key is accepted by that server.
      const [session] = await h.db.query<{ id: string; user_id: string }>(
        'select s.id, s.user_id from sessions s join users u on u.id = s.user_id where u.email = $1 and s.revoked_at is null limit 1',
        [EMAIL],
      );
      if (!session) throw new Error('no session');
      const token = accessTokens(given.TOKEN_SECRET).sign({ sub: session.user_id, sid: session.id }, Date.now() + 60_000);
      const res = await app.inject({ method: 'POST', url: `${A}/type/`, headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).not.toBe(401);
      expect(existsSync(join(dataDir, 'keys'))).toBe(false);
    } finally {
      await app.close();
    }
  });

  test('keys stored in app_secrets by an older release are moved to their files before the table is dropped', async () => {
    const db = await createTestDb(MIGRATIONS_DIR);
    const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-legacy-'));
    try {
      await db.exec('create table app_secrets (name text primary key, value text not null)');
      await db.query("insert into app_secrets values ('token_secret', $1), ('sealing_key', $2)", [
        'old-token-'.repeat(4),
        'old-seal-'.repeat(4),
      ]);
      const moved = await moveLegacyKeys(db, dataDir, {
        token_secret: {},
        // Already configured and different: the stored one becomes the previous key, still read.
        sealing_key: { value: 'new-seal-'.repeat(4) },
      });
      expect(moved.sort()).toEqual(['sealing_key.previous', 'token_secret']);
      expect(readFileSync(join(dataDir, 'keys', 'token_secret'), 'utf8').trim()).toBe('old-token-'.repeat(4));
      expect((statSync(join(dataDir, 'keys', 'token_secret')).mode & 0o777).toString(8)).toBe('600');
      const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, SEALING_KEY: 'new-seal-'.repeat(4) });
      const keys = loadServerKeys(config);
      expect(keys.token).toBe('old-token-'.repeat(4));
      expect(keys.sealing).toEqual(['new-seal-'.repeat(4), 'old-seal-'.repeat(4)]);
      // A second start finds nothing left to move.
      expect(await moveLegacyKeys(db, dataDir, { token_secret: {}, sealing_key: { value: 'new-seal-'.repeat(4) } })).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

describe('rotation', () => {
  const withKeys = async (env: Record<string, string>, run: (server: Harness['post']) => Promise<void>) => {
    const config: Config = { ...h.config, ...env };
    const app = await buildServer({ config, db: h.db });
    try {
      await run(async (path, body) => {
        const res = await app.inject({ method: 'POST', url: path, payload: body as Record<string, unknown> });
        return { status: res.statusCode, headers: new Headers(), body: res.json(), text: res.body } as never;
      });
    } finally {
      await app.close();
    }
  };
  const current = () => loadServerKeys(h.config);

  test('a backup code is refused once the code key changes, and accepted with the old key as the previous one', async () => {
    await h.db.query('delete from auth_limits');
    const code = backupCodes[1] as string;
    const body = { email: EMAIL, password: DEMO_PASSWORD, team_slug: 'northwind', recovery_code: code };
    const other = 'n'.repeat(40);
    await withKeys({ CODE_HASH_KEY: other }, async (post) => {
      const res = await post(`${A}/verify/recovery/code/`, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'code_invalid' });
    });
    await withKeys({ CODE_HASH_KEY: other, CODE_HASH_KEY_PREVIOUS: current().codes[0] as string }, async (post) => {
      expect((await post(`${A}/verify/recovery/code/`, body)).status).toBe(200);
    });
  });

  test('an emailed code is refused once the code key changes', async () => {
    await h.db.query('delete from auth_limits');
    const email = DEMO_ADMINS.recoveryAgent;
    await h.post(`${A}/verify/password/`, { email, password: DEMO_PASSWORD, team_slug: 'northwind' });
    const otp = await h.waitForCode(email);
    await withKeys({ CODE_HASH_KEY: 'm'.repeat(40) }, async (post) => {
      const res = await post(`${A}/verify/otp/`, { email, otp, password: DEMO_PASSWORD, team_slug: 'northwind' });
      expect(res.body).toMatchObject({ code: 'otp_invalid' });
    });
    expect((await h.post(`${A}/verify/otp/`, { email, otp, password: DEMO_PASSWORD, team_slug: 'northwind' })).status).toBe(200);
  });

  test('a new sealing key reads the authenticator secret with the previous one and re-seals it on use', async () => {
    await h.db.query('delete from auth_limits');
    const read = async () =>
      (await h.db.query<{ totp_secret: string }>('select totp_secret from users where email = $1', [EMAIL]))[0]?.totp_secret;
    const before = await read();
    // Each sign-in below may use the current code again (the replay guard is not under test here).
    const fresh = () => h.db.query('update users set totp_last_step = null where email = $1', [EMAIL]);
    await fresh();
    const sealing = 'r'.repeat(40);
    await withKeys({ SEALING_KEY: sealing, SEALING_KEY_PREVIOUS: current().sealing[0] as string }, async (post) => {
      const res = await post(`${A}/verify/totp/`, {
        email: EMAIL,
        password: DEMO_PASSWORD,
        team_slug: 'northwind',
        totp: await currentTotp(totpSecret),
      });
      expect(res.status).toBe(200);
    });
    const after = await read();
    expect(after).not.toBe(before);
    await fresh();
    // Now sealed under the new key alone: a server with only it still reads the secret.
    await withKeys({ SEALING_KEY: sealing }, async (post) => {
      const res = await post(`${A}/verify/totp/`, {
        email: EMAIL,
        password: DEMO_PASSWORD,
        team_slug: 'northwind',
        totp: await currentTotp(totpSecret),
      });
      expect(res.status).toBe(200);
    });
  });

  test('backup codes stored unkeyed by an older release are re-keyed on start and keep working', async () => {
    await h.db.query('delete from auth_limits');
    const code = backupCodes[2] as string;
    const [user] = await h.db.query<{ id: string }>('select id from users where email = $1', [EMAIL]);
    const legacy = hashToken(`recovery:${user?.id}:${code.replace('-', '')}`);
    // As an older release stored it: every row of this user back to the unkeyed hash of its code.
    await h.db.query('delete from recovery_codes where user_id = $1', [user?.id]);
    await h.db.query('insert into recovery_codes (user_id, code_hash) values ($1, $2)', [user?.id, legacy]);
    await withKeys({}, async (post) => {
      const [row] = await h.db.query<{ code_hash: string }>('select code_hash from recovery_codes where user_id = $1', [
        user?.id,
      ]);
      expect(row?.code_hash).toMatch(/^k1\./);
      expect(
        (
          await post(`${A}/verify/recovery/code/`, {
            email: EMAIL,
            password: DEMO_PASSWORD,
            team_slug: 'northwind',
            recovery_code: code,
          })
        ).status,
      ).toBe(200);
    });
  });
});
