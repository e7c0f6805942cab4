// `npm start`: builds the console when needed, then runs the server (serving the console), the Hub
// and the demo identity provider; the server and the Hub each on its own embedded database under
// ./data (DEMO_DATA_DIR), seeded with the demo teams on first start. It waits for them as long as
// they run, saying what they are doing, and stops every one of them when one stops, on Ctrl-C, or
// when it is itself stopped.
import './node-runtime.mjs';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { demoTrust } from './demo-keys.mjs';
import { SERVER_NODE_FLAGS } from './node-flags.mjs';
import { build, buildIsStale, builtOnce } from './start/build-if-stale.mjs';
import { readable, showLine } from './start/log-lines.mjs';
import { takenPorts } from './start/ports.mjs';
import { stopGroups } from './start/process-group.mjs';
import { howItEnded, runProgram } from './start/program.mjs';
import { waitReady } from './start/wait-ready.mjs';

const root = new URL('..', import.meta.url).pathname;
const SERVER_PORT = Number(process.env.PORT ?? 8080);
const HUB_PORT = Number(process.env.HUB_PORT ?? 8081);
const host = process.env.HOST ?? '127.0.0.1';
const consoleUrl = `http://${host}:${SERVER_PORT}`;
const hubUrl = `http://${host}:${HUB_PORT}`;
const dataRoot = resolve(root, process.env.DEMO_DATA_DIR ?? 'data');

// A demo SAML identity provider for the SSO walk-through (README, "Single sign-on"): development
// only. It is the tests' identity provider (apps/server/src/test), run through tsx's loader, so it
// needs the dev dependencies and is never part of a production build; DEMO_IDP=0 leaves it out.
const DEMO_IDP_PORT = Number(process.env.DEMO_IDP_PORT ?? 8082);
const demoIdpUrl = `http://127.0.0.1:${DEMO_IDP_PORT}`;
let withDemoIdp =
  process.env.DEMO_IDP !== '0' && process.env.NODE_ENV !== 'production' && existsSync(join(root, 'node_modules/tsx'));

/** What runs now (the build, then the programs), each a process group. */
const running = [];
let stopping = null;

/** Stops everything started, then exits with `code`. */
function stopAll(code) {
  stopping ??= stopGroups(running).then(() => process.exit(code));
  return stopping;
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (!stopping) console.info('\nStopping the programs…');
    stopAll(0);
  });
}
// Run again under Node 24 by scripts/node-runtime.mjs: when that process is gone, so is this one.
if (process.channel) process.once('disconnect', () => stopAll(0));
// Whatever goes wrong here is said in one line; the programs are stopped all the same.
process.on('uncaughtException', (error) => {
  process.exitCode = 1;
  try {
    console.error(`npm start: ${error.message}`);
  } catch {}
  stopAll(1);
});

const indent = (text) => text.replace(/^/gm, '   ');

function lastLines(program) {
  const lines = program.lastLines.filter((line) => line.trim()).map(readable);
  return lines.length ? indent(lines.join('\n')) : '   (it wrote nothing)';
}

function failed(program, when) {
  console.error(`\nThe ${program.title} ${howItEnded(program.exit)}${when}. Its last lines:\n${lastLines(program)}\n`);
  console.error('Stopping the others.');
  stopAll(1);
}

function start(name, title, args, env) {
  const program = runProgram({
    name,
    title,
    command: process.execPath,
    args,
    cwd: root,
    env: { ...process.env, ...env },
    onLine: showLine,
  });
  running.push(program);
  return program;
}

async function main() {
  const taken = await takenPorts([
    { port: SERVER_PORT, host, use: 'the console', setting: 'PORT' },
    { port: HUB_PORT, host, use: 'the Hub', setting: 'HUB_PORT' },
  ]);
  if (taken.length) {
    for (const line of taken) console.error(line);
    return stopAll(1);
  }
  if (withDemoIdp) {
    const idpPort = { port: DEMO_IDP_PORT, host: '127.0.0.1', use: 'the demo identity provider', setting: 'DEMO_IDP_PORT' };
    for (const line of await takenPorts([idpPort])) {
      console.error(`${line} The console starts without it.`);
      withDemoIdp = false;
    }
  }

  // START_BUILD=if-missing runs the last build even when a source is newer (the launcher's test, after one build).
  if (process.env.START_BUILD === 'if-missing' ? !builtOnce(root) : buildIsStale(root)) {
    console.info('Building the console, server and Hub…');
    const building = build(root);
    running.push(building);
    const { code, signal, error } = await building.exited;
    running.splice(running.indexOf(building), 1);
    if (stopping) return;
    if (code !== 0) {
      console.error(`The build ${error ? `could not start (${error.message})` : `failed (${signal ?? `exit code ${code}`})`}.`);
      return stopAll(1);
    }
  }

  const started = Date.now();
  // Each program's own Ed25519 key, in its data directory (kept across restarts); the demo pins
  // each public half on the other side. No secret is shared between them.
  const trust = demoTrust(join(dataRoot, 'server'), join(dataRoot, 'hub'));

  const hub = start('hub', 'Hub', [...SERVER_NODE_FLAGS, 'apps/hub/dist/main.mjs'], {
    HOST: host,
    PORT: String(HUB_PORT),
    DATA_DIR: join(dataRoot, 'hub'),
    SEED_DEMO: '1',
    DEMO_SERVER_KEY: trust.serverKey,
    DEMO_SERVER_URL: consoleUrl,
    ALLOWED_ORIGINS: process.env.ALLOWED_ORIGINS ?? `${consoleUrl},http://localhost:${SERVER_PORT}`,
  });
  const server = start('server', 'server', [...SERVER_NODE_FLAGS, 'apps/server/dist/main.mjs'], {
    HOST: host,
    PORT: String(SERVER_PORT),
    DATA_DIR: join(dataRoot, 'server'),
    SEED_DEMO: '1',
    DEMO_HUB_URL: hubUrl,
    DEMO_HUB_KEY: trust.hubKey,
  });
  hub.readyUrl = `${hubUrl}/readyz`;
  server.readyUrl = `${consoleUrl}/readyz`;
  if (withDemoIdp) {
    const idp = start('demo-idp', 'demo identity provider', ['--import', 'tsx', 'apps/server/src/test/demo-idp.ts'], {
      DEMO_IDP_PORT: String(DEMO_IDP_PORT),
      DEMO_IDP_KEY_FILE: process.env.DEMO_IDP_KEY_FILE ?? join(dataRoot, 'demo-idp/key.json'),
    });
    // Not a reason to stop the console: SSO is then set up against a real identity provider.
    idp.exited.then((exit) => {
      if (!stopping)
        console.error(
          `\nThe demo identity provider ${howItEnded(exit)}; the console runs on without it. Its last lines:\n${lastLines(idp)}\n`,
        );
    });
  }

  console.info(
    `Starting the server and the Hub: a first start creates their databases and seeds the demo, which takes about a minute on a small machine.`,
  );
  const wait = await waitReady([server, hub], { started, report: (text) => console.info(text) });
  if (stopping) return;
  if (wait.stopped) return failed(wait.stopped, ' before it was ready');

  console.info(`
  Latchkey is running (ready in ${((Date.now() - started) / 1000).toFixed(1)} s).

  Console   ${consoleUrl}
  Hub       ${hubUrl}

  Demo sign-in   alex@northwind.example  /  Latchkey-demo-2026   (super admin)
  Other admins   adam@ (admin), ivy@ (integrator), rory@ (recovery agent),
                 sam@ (admin of Northwind and owner of a family team) — all @northwind.example, same password
  Email codes    and recovery notifications appear below as "✉ Mail to …"
                 (set SMTP_URL, read by the server and the Hub, to send real mail)${
                   withDemoIdp
                     ? `
  SSO demo       fiona@alpine.example (super admin of Alpine Ski House), same password: at
                 Settings → SSO connector add a connector, metadata URL ${demoIdpUrl}/metadata;
                 the demo identity provider signs in felix@, gus@ or fiona@alpine.example`
                     : ''
                 }

  Ctrl-C stops them all.
`);
  const stopped = await Promise.race([server, hub].map((program) => program.exited.then(() => program)));
  if (!stopping) failed(stopped, '');
}

main().catch((error) => {
  console.error(`npm start: ${error.message}`);
  stopAll(1);
});
