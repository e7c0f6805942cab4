// `npm test`: every suite, on every database, then the console in Chromium.
//   1. the build of the console, server and Hub (the `npm start` tests run it);
//   2. unit + API tests (vitest) on embedded PGlite;
//   3. the server, hub and runtime suites again on the PostgreSQL server at TEST_DATABASE_URL
//      (CI sets it; locally it is optional and said so), with the container image's tests
//      (podman: built, run as several instances, the Kubernetes pods played);
//   4. the console's bundle budget, and the end-to-end suite in Chromium.
// It ends with one "N passed, N failed" line over everything it ran.
import './node-runtime.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), 'latchkey-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
/** Every failed test by name, repeated at the very end: a long run's failures are otherwise far up the log. */
const failures = [];
let ok = true;

function run(title, command, args, env = {}) {
  console.info(`\n━━ ${title}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) ok = false;
  return result.status === 0;
}

function countVitest(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
  for (const result of report.testResults) {
    const failed = result.assertionResults.filter((t) => t.status === 'failed');
    for (const t of failed)
      failures.push(
        `${result.name.replace(root, '')}: ${t.fullName} — ${(t.failureMessages[0] ?? '').split('\n')[0].slice(0, 300)}`,
      );
    // A file that failed outside any test (its set-up, an import) has no failed test to name.
    if (result.status === 'failed' && failed.length === 0) failures.push(`${result.name.replace(root, '')}: ${result.message}`);
  }
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const { stats, suites } = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests) if (t.status === 'unexpected') failures.push(`${spec.file} [${t.projectName}]: ${spec.title}`);
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of suites) walk(suite);
}

const built = run('console, server and Hub build', 'npm', ['run', 'build']);

const vitest = join(root, 'node_modules/.bin/vitest');
const pglite = join(out, 'vitest-pglite.json');
run('unit and API tests on embedded PGlite', vitest, [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${pglite}`,
]);
countVitest(pglite);

if (process.env.TEST_DATABASE_URL) {
  const postgres = join(out, 'vitest-postgres.json');
  run(
    'server, hub, runtime and container tests on PostgreSQL',
    vitest,
    [
      'run',
      '--project',
      'server',
      '--project',
      'hub',
      '--project',
      'runtime',
      '--project',
      'containers',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${postgres}`,
    ],
    { TEST_DB: 'postgres' },
  );
  countVitest(postgres);
} else if (process.env.CI) {
  console.error('CI must set TEST_DATABASE_URL: the suites run on PostgreSQL too.');
  ok = false;
} else {
  console.info('\n(TEST_DATABASE_URL is not set: the PostgreSQL run is skipped on this machine; CI always runs it.)');
}

if (built && run('sign-in bundle budget', 'node', ['scripts/bundle-budget.mjs'])) {
  if (!existsSync('/usr/bin/chromium')) {
    console.error(
      '\nChromium is missing: install it with `apt-get install -y chromium` (the end-to-end tests are never skipped).',
    );
    ok = false;
  } else {
    const e2e = join(out, 'playwright.json');
    run(
      'end-to-end tests in Chromium',
      join(root, 'node_modules/.bin/playwright'),
      ['test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
      {
        PLAYWRIGHT_JSON_OUTPUT_NAME: e2e,
      },
    );
    countPlaywright(e2e);
  }
}

if (failures.length > 0) console.info(`\nFailed:\n${failures.map((f) => `  ✘ ${f}`).join('\n')}`);
console.info(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(ok && totals.failed === 0 && totals.passed > 0 ? 0 : 1);
