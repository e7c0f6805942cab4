// The server operator's command line: `npm run cli -- <command>` or `npx latchkey <command>`.
// What an admin cannot do in the console: create a team with its first super admin, reset an
// admin's sign-in, rotate keys, export a team, and check the deployment (doctor). It reads the server's configuration (the same
// environment and DATA_DIR) and opens its database as the server does, migrations first.

import { createWriteStream, rmSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import {
  AppError,
  CliError,
  createJobs,
  DataDirInUseError,
  type Db,
  migrate,
  moveLegacyKeys,
  openDb,
  outboundPolicy,
  runCli,
} from '@latchkey/runtime';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from './config.ts';
import { MIGRATIONS_DIR } from './db/migrations-dir.ts';
import { doctorChecks } from './doctor.ts';
import { createApprovalsOperator } from './features/approvals/index.ts';
import { createBillingService } from './features/billing/index.ts';
import { createHubClient } from './features/integration/hub-client.ts';
import { createHubSessionEnder } from './features/integration/hub-session-ender.ts';
import { loadServerKey } from './features/integration/server-key.ts';
import { createOperatorService, type OperatorService } from './features/operator/index.ts';
import { integrationLookups } from './integration-lookups.ts';
import { doctorReport, runChecks } from './platform/doctor/findings.ts';
import { ROTATABLE, type Rotatable, rotateKey } from './platform/key-rotation.ts';
import { serverKeySources } from './platform/keys.ts';
import { useOutboundPolicy } from './platform/outbound.ts';

const config = loadConfig();

/** Failures worth a line of their own reach stderr; the job queue's notes are only warnings. */
const log = {
  warn: (detail: { hub?: string }, message: string) =>
    console.error(`warning: ${message}${detail.hub ? ` (${detail.hub})` : ''}`),
  error: (_detail: unknown, message: string) => console.error(`error: ${message}`),
  info: () => {},
  debug: () => {},
} as unknown as FastifyBaseLogger;

/** A break-glass reason is what the event log keeps of why: it must say something. */
function requireReason(reason: string | undefined): string {
  const text = (reason ?? '').trim();
  if (text.length < 5) throw new CliError('--reason must say why (at least 5 characters); it goes to the event log.', 2);
  return text.slice(0, 1000);
}

async function withOperator<T>(fn: (operator: OperatorService, db: Db) => Promise<T>): Promise<T> {
  let db: Db;
  try {
    db = await openDb({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  } catch (error) {
    if (error instanceof DataDirInUseError) throw new CliError(error.message);
    throw new CliError(
      `Cannot open the database${config.DATABASE_URL ? '' : ` in ${config.DATA_DIR}`}: ${(error as Error).message}`,
    );
  }
  try {
    await moveLegacyKeys(db, config.DATA_DIR, serverKeySources(config));
    await migrate(db, MIGRATIONS_DIR);
    useOutboundPolicy(outboundPolicy({ production: config.NODE_ENV === 'production', allow: config.OUTBOUND_ALLOW }));
    // The CLI only queues work (telling the Hubs that sessions ended): the server's workers run it.
    const jobs = createJobs(db, { log, noWorkers: true });
    const hubSessions = createHubSessionEnder(db, createHubClient(loadServerKey(config)), jobs, log, integrationLookups);
    const approvals = createApprovalsOperator(db, jobs);
    await jobs.start();
    try {
      const consoleUrl = config.PUBLIC_URL?.replace(/\/$/, '') ?? null;
      return await fn(createOperatorService(db, { hubSessions, consoleUrl, approvals }), db);
    } finally {
      await jobs.stop();
    }
  } catch (error) {
    if (error instanceof AppError) throw new CliError(error.description);
    throw error;
  } finally {
    await db.close();
  }
}

process.exitCode = await runCli(
  'latchkey',
  {
    'create-team': {
      summary: 'create a team and its first super admin; prints their single-use onboarding link (needs PUBLIC_URL)',
      usage: '--slug <slug> --name <name> --kind organization|family --admin <email> [--valid-till YYYY-MM-DD]',
      options: {
        slug: { required: true },
        name: { required: true },
        kind: { required: true },
        admin: { required: true },
        'valid-till': {},
      },
      run: (v) =>
        withOperator(async (operator) => {
          const made = await operator.createTeam({
            slug: v.slug as string,
            name: v.name as string,
            kind: v.kind as string,
            admin: v.admin as string,
            validTill: v['valid-till'],
          });
          console.info(`Created team "${made.slug}" with super admin ${made.admin}.`);
          if (made.hasPassword) console.info(`${made.admin} already has a password: they sign in with it and choose this team.`);
          else if (made.onboarding)
            console.info(
              `Give them this link (single use, 7 days; they confirm a code sent to their email, then choose a password):\n${made.onboarding}`,
            );
          else console.info('PUBLIC_URL is not set, so no link can be made: set it and run reset-admin for this admin.');
        }),
    },
    'reset-admin': {
      summary: "reset an admin's sign-in: clears password and second factors, ends their sessions (and their Hub sessions)",
      usage: '--team <slug> --email <email>',
      options: { team: { required: true }, email: { required: true } },
      run: (v) =>
        withOperator(async (operator) => {
          await operator.resetAdmin(v.team as string, v.email as string);
          console.info(
            `The sign-in of ${v.email} in "${v.team}" is reset and their sessions ended. They set a new password with "Forgot password" on the sign-in page.`,
          );
        }),
    },
    approvals: {
      summary: "list a team's pending approval requests (four-eyes approval; see docs/approvals.md)",
      usage: '--team <slug>',
      options: { team: { required: true } },
      run: (v) =>
        withOperator(async (operator) => {
          const pending = await operator.approvals(v.team as string);
          if (pending.length === 0) console.info(`No approval request waits in "${v.team}".`);
          for (const r of pending)
            console.info(`${r.id}  ${r.action}  by ${r.requester}  until ${r.expires_at}\n    ${r.summary}`);
        }),
    },
    'approval-approve': {
      summary:
        'break-glass: approve a pending request whatever its approvals; the server runs it. The reason goes to the event log',
      usage: '--team <slug> --id <request id> --reason <why>',
      options: { team: { required: true }, id: { required: true }, reason: { required: true } },
      run: (v) => {
        const reason = requireReason(v.reason);
        return withOperator(async (operator) => {
          const row = await operator.approveRequest(v.team as string, v.id as string, reason);
          console.info(`Approved ${row.action} (${row.id}) as the operator: the server runs it within seconds.`);
        });
      },
    },
    'approval-clear': {
      summary: 'close a pending or approved request without running it; the reason goes to the event log',
      usage: '--team <slug> --id <request id> --reason <why>',
      options: { team: { required: true }, id: { required: true }, reason: { required: true } },
      run: (v) => {
        const reason = requireReason(v.reason);
        return withOperator(async (operator) => {
          const row = await operator.clearRequest(v.team as string, v.id as string, reason);
          console.info(`Cleared ${row.action} (${row.id}): it will never run.`);
        });
      },
    },
    'invoice-paid': {
      summary: 'record a manual invoice as paid (bank transfer received): applies its order (licences, plan, renewal)',
      usage: '--number <LK-000042 or 42>',
      options: { number: { required: true } },
      run: (v) =>
        withOperator(async (_operator, db) => {
          const number = Number(String(v.number).replace(/^LK-/i, ''));
          if (!Number.isInteger(number) || number < 1) throw new CliError('--number is an invoice number such as LK-000042.');
          const invoice = await createBillingService(db).markPaidByNumber(number);
          console.info(`Invoice ${invoice.number} (${invoice.description}) is paid and applied.`);
        }),
    },
    'rotate-keys': {
      summary: `write a new key in DATA_DIR/keys (${ROTATABLE.join(', ')}); see docs/keys.md. signing needs --force: every Hub must be set up again`,
      usage: `--key ${ROTATABLE.join('|')} [--force]`,
      options: { key: { required: true }, force: { flag: true } },
      run(v) {
        if (!ROTATABLE.includes(v.key as Rotatable)) throw new CliError(`--key must be one of ${ROTATABLE.join(', ')}.`, 2);
        const done = rotateKey(config, v.key as Rotatable, { force: v.force === 'true' });
        console.info(`Wrote a new key to ${done.file}.\nNext: ${done.next}`);
      },
    },
    doctor: {
      summary:
        'check the deployment in words: database and migrations, Redis, SMTP, keys, PUBLIC_URL, Hubs and their clocks, certificates, the job queue',
      usage: '',
      async run() {
        let db: Db;
        try {
          // Opened as it is: the doctor reports missing migrations, it does not apply them.
          db = await openDb({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
        } catch (error) {
          if (error instanceof DataDirInUseError) {
            throw new CliError(
              `the embedded database in ${config.DATA_DIR} is in use by a running server: ask it at /readyz?verbose.`,
            );
          }
          throw new CliError(`✘ database  cannot be opened: ${(error as Error).message}`);
        }
        try {
          useOutboundPolicy(outboundPolicy({ production: config.NODE_ENV === 'production', allow: config.OUTBOUND_ALLOW }));
          const findings = await runChecks(doctorChecks(config, db));
          console.info(doctorReport(findings));
          const problems = findings.filter((f) => f.verdict === 'problem').length;
          if (problems) throw new CliError(`${problems} ${problems === 1 ? 'problem' : 'problems'} to fix.`);
        } finally {
          await db.close();
        }
      },
    },
    'export-team': {
      summary: "write the team's data as JSON: team, admins (no secrets), policies, groups, members (stdout unless --out)",
      usage: '--team <slug> [--out <file>]',
      options: { team: { required: true }, out: {} },
      run: (v) =>
        withOperator(async (operator) => {
          // Member data: a file only its owner reads, never replaced if it exists.
          const out = v.out ? createWriteStream(v.out, { flags: 'wx', mode: 0o600 }) : process.stdout;
          const opened = v.out ? new Promise((resolve, reject) => out.once('open', resolve).once('error', reject)) : null;
          await opened?.catch((error: NodeJS.ErrnoException) => {
            throw new CliError(error.code === 'EEXIST' ? `${v.out} exists already.` : `Cannot write ${v.out}: ${error.message}`);
          });
          try {
            await operator.exportTeam(v.team as string, out);
          } catch (error) {
            // No half-written export is left behind to be taken for a whole one.
            if (v.out) {
              out.destroy();
              rmSync(v.out, { force: true });
            }
            throw error;
          }
          if (v.out) {
            out.end();
            await finished(out);
            console.error(`Wrote ${v.out}.`);
          }
        }),
    },
  },
  process.argv.slice(2),
);
