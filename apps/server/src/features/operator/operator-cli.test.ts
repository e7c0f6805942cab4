// The operator's command line, run as the operator runs it (a child process through tsx) against
// the database the server uses: an embedded PGlite data directory, or PostgreSQL with TEST_DB=postgres.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Db, generateSymmetricKey, keyFile, openDb, writeKeyFile } from '@latchkey/runtime';
import { createPostgresDb, type SmtpReceiver, startSmtpReceiver } from '@latchkey/runtime/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildServer } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { MIGRATIONS_DIR } from '../../db/migrations-dir.ts';

const onPostgres = process.env.TEST_DB === 'postgres';
const ROOT = join(import.meta.dirname, '../../../../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const CLI = join(ROOT, 'apps/server/src/cli.ts');
const PUBLIC_URL = 'http://127.0.0.1:9';
const A = '/api/v1/console/auth';

const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-cli-'));
let pg: (Db & { url: string }) | undefined;
const env = () => ({
  PATH: process.env.PATH ?? '',
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
  PUBLIC_URL,
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

describe(`latchkey CLI (${onPostgres ? 'PostgreSQL' : 'PGlite data directory'})`, () => {
  let link = '';

  test('create-team makes the team and its super admin and prints the onboarding link; a second one with the slug is refused', async () => {
    const made = await cli(
      'create-team',
      '--slug',
      'acme',
      '--name',
      'Acme Inc',
      '--kind',
      'organization',
      '--admin',
      'Root@Acme.example',
    );
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('Created team "acme" with super admin root@acme.example.');
    link = /(http:\/\/\S+#\/email-verification\/\S+)/.exec(made.stdout)?.[1] ?? '';
    expect(link.startsWith(`${PUBLIC_URL}/#/email-verification/`)).toBe(true);

    const again = await cli('create-team', '--slug', 'acme', '--name', 'Other', '--kind', 'family', '--admin', 'x@acme.example');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('A team "acme" exists already.');
    const wrongKind = await cli('create-team', '--slug', 'b', '--name', 'B', '--kind', 'company', '--admin', 'b@b.example');
    expect(wrongKind.code).toBe(1);
    expect(wrongKind.stderr).toContain('--kind');
    const missing = await cli('create-team', '--slug', 'c');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing --name, --kind, --admin');
  }, 120_000);

  test('export-team writes the team, its admins without secrets and its members as JSON; an unknown team is refused and leaves no file', async () => {
    const out = join(dataDir, 'acme.json');
    const done = await cli('export-team', '--team', 'acme', '--out', out);
    expect(done.code).toBe(0);
    const exported = JSON.parse(readFileSync(out, 'utf8'));
    expect(exported.team).toMatchObject({ slug: 'acme', name: 'Acme Inc', team_type: 'organization' });
    expect(exported.admins).toEqual([
      { email: 'root@acme.example', name: '', scopes: ['super_admin'], has_password: false, has_authenticator: false },
    ]);
    expect(exported.members).toEqual([]);
    expect(JSON.stringify(exported)).not.toMatch(/password_hash|totp_secret/);
    const again = await cli('export-team', '--team', 'acme', '--out', out);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists already');

    const none = join(dataDir, 'none.json');
    const unknown = await cli('export-team', '--team', 'nope', '--out', none);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('There is no team "nope".');
    expect(existsSync(none)).toBe(false);
  }, 120_000);

  test('reset-admin resets an admin of the team; someone who is not one is refused', async () => {
    const stranger = await cli('reset-admin', '--team', 'acme', '--email', 'nobody@acme.example');
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toContain('nobody@acme.example is not an administrator of this team.');
    const reset = await cli('reset-admin', '--team', 'acme', '--email', 'root@acme.example');
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain('is reset');
  }, 120_000);

  test('rotate-keys keeps the previous code key, refuses a second rotation while it exists, and refuses the signing key without --force', async () => {
    const file = keyFile(dataDir, 'code_hash_key');
    writeKeyFile(file, generateSymmetricKey());
    const before = readFileSync(file, 'utf8');
    const rotated = await cli('rotate-keys', '--key', 'codes');
    expect(rotated.code).toBe(0);
    expect(readFileSync(`${file}.previous`, 'utf8')).toBe(before);
    expect(readFileSync(file, 'utf8')).not.toBe(before);
    const twice = await cli('rotate-keys', '--key', 'codes');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('the last rotation is not finished');
    const signing = await cli('rotate-keys', '--key', 'signing');
    expect(signing.code).toBe(1);
    expect(signing.stderr).toContain('--force');
    const unknown = await cli('rotate-keys', '--key', 'everything');
    expect(unknown.code).toBe(2);
    const help = await cli('help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('create-team');
    expect((await cli('frobnicate')).code).toBe(2);
  }, 120_000);

  test('a server on that database shows the created admin their onboarding link, sends the code and asks for a first password', async () => {
    const db = pg ?? (await openDb({ dataDir }));
    let smtp: SmtpReceiver | undefined;
    try {
      if (!onPostgres) {
        // The embedded database is the server's alone while it runs: the CLI says so and stops.
        const busy = await cli('export-team', '--team', 'acme');
        expect(busy.code).toBe(1);
        expect(busy.stderr).toContain(`is in use by process ${process.pid}`);
      }
      smtp = await startSmtpReceiver();
      const config = loadConfig({ ...env(), SMTP_URL: smtp.url, WEB_DIST: join(tmpdir(), 'latchkey-no-web-dist') });
      const app = await buildServer({ config, db });
      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      try {
        const send = async (path: string, body: object) => {
          const r = await fetch(url + path, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          return (await r.json()) as Record<string, unknown>;
        };
        // The reset above ended the first link; a new one, as the operator would make (a second team, same person).
        const token = decodeURIComponent(link.split('/').at(-1) ?? '');
        expect((await send(`${A}/email/link/verify/`, { token })).code).toBe('invalid_link');
        await app.close();
        if (!onPostgres) await db.close();
        const made = await cli(
          'create-team',
          '--slug',
          'acme-family',
          '--name',
          'Acme Family',
          '--kind',
          'family',
          '--admin',
          'kid@acme.example',
        );
        expect(made.code).toBe(0);
        const fresh = decodeURIComponent(/email-verification\/(\S+)/.exec(made.stdout)?.[1] ?? '');
        const db2 = pg ?? (await openDb({ dataDir }));
        const app2 = await buildServer({ config, db: db2 });
        const url2 = await app2.listen({ host: '127.0.0.1', port: 0 });
        try {
          const send2 = async (path: string, body: object) => {
            const r = await fetch(url2 + path, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(body),
            });
            return (await r.json()) as Record<string, unknown>;
          };
          expect(await send2(`${A}/email/link/verify/`, { token: fresh })).toEqual({
            email: 'kid@acme.example',
            team_slug: 'acme-family',
            team_name: 'Acme Family',
          });
          expect((await send2(`${A}/login/`, { device: { type: 'browser' }, on_boarding_verification: fresh })).code).toBe(
            'onboarding_otp_sent',
          );
          const [mail] = await smtp.waitFor('kid@acme.example');
          const otp = /sign-in code: (\d{6})/.exec(mail?.raw ?? '')?.[1] ?? '';
          const done = await send2(`${A}/verify/otp/`, {
            email: 'kid@acme.example',
            otp,
            team_slug: 'acme-family',
            on_boarding_verification: fresh,
          });
          expect(done.code).toBe('set_password_first');
        } finally {
          await app2.close();
          if (!onPostgres) await db2.close();
        }
      } finally {
        if (app.server.listening) await app.close();
      }
    } finally {
      await smtp?.close();
    }
  }, 120_000);
});
