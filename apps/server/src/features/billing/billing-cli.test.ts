// The operator's `invoice-paid`, run as the operator runs it (a child process through tsx) against
// an embedded data directory, or PostgreSQL with TEST_DB=postgres.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Db, migrate, openDb } from '@latchkey/runtime';
import { createPostgresDb } from '@latchkey/runtime/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MIGRATIONS_DIR } from '../../db/migrations-dir.ts';
import { billingRepository as repo } from './billing.repository.ts';

const onPostgres = process.env.TEST_DB === 'postgres';
const ROOT = join(import.meta.dirname, '../../../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-billing-cli-'));
let pg: (Db & { url: string }) | undefined;

async function cli(...args: string[]) {
  const env = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    // A hosted licence server, where only the operator records payments: the CLI is that operator.
    INVOICE_PAID_BY: 'operator',
    ...(pg ? { DATABASE_URL: pg.url } : {}),
  };
  try {
    const { stdout } = await promisify(execFile)(
      join(ROOT, 'node_modules/.bin/tsx'),
      [join(ROOT, 'apps/server/src/cli.ts'), ...args],
      {
        env,
        timeout: 60_000,
      },
    );
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code?: number; stderr?: string };
    return { code: e.code ?? -1, out: e.stderr ?? '' };
  }
}
const open = async () => pg ?? (await openDb({ dataDir }));
const close = async (db: Db) => {
  if (!pg) await db.close();
};

let number = '';
beforeAll(async () => {
  if (onPostgres) pg = await createPostgresDb(MIGRATIONS_DIR);
  const db = await open();
  await migrate(db, MIGRATIONS_DIR);
  const [team] = await db.query<{ id: string }>(
    "insert into teams (slug, name, team_type, organization_type, valid_till, total_licences) values ('cli-billing', 'CLI Billing', 'organization', 'standard', current_date + 200, 10) returning id",
  );
  await repo.ensure(db, team?.id as string);
  const invoice = await repo.insertInvoice(db, {
    team_id: team?.id as string,
    kind: 'licenses',
    provider: 'manual',
    currency: 'USD',
    lines: [{ description: '5 additional licences', quantity: 5, unit_cents: 100, amount_cents: 500 }],
    total_cents: 500,
    change: { add_licenses: 5 },
    bill_to: { team_name: 'CLI Billing', team_slug: 'cli-billing', billing_email: 'billing@cli.example' },
    due_date: '2030-01-01',
  });
  number = invoice?.number as string;
  await close(db);
}, 60_000);
afterAll(async () => pg?.close());

test("invoice-paid applies a team's manual invoice once; an unknown number or team is refused", async () => {
  // Numbers count per team: this team's first invoice is LK-000001.
  expect(number).toBe('1');
  const paid = await cli('invoice-paid', '--team', 'cli-billing', '--number', `LK-${number.padStart(6, '0')}`);
  expect(paid.code, paid.out).toBe(0);
  expect(paid.out).toContain('Invoice LK-000001');
  expect(paid.out).toContain('is paid and applied');
  const again = await cli('invoice-paid', '--team', 'cli-billing', '--number', number);
  expect(again.code).not.toBe(0);
  expect(again.out).toContain('already paid');
  const unknown = await cli('invoice-paid', '--team', 'cli-billing', '--number', '999999');
  expect(unknown.code).not.toBe(0);
  expect(unknown.out).toContain('has no invoice LK-999999');
  const otherTeam = await cli('invoice-paid', '--team', 'no-such-team', '--number', number);
  expect(otherTeam.code).not.toBe(0);
  expect(otherTeam.out).toContain('There is no team');
  const db = await open();
  const [team] = await db.query<{ total_licences: number }>("select total_licences from teams where slug = 'cli-billing'");
  await close(db);
  expect(team?.total_licences).toBe(15);
}, 120_000);
