// `npm start`: builds the console when needed, then runs the server (serving the console) and the
// Hub, each on its own embedded PostgreSQL under ./data, seeded with a demo team on first start.
import './node-runtime.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { demoTrust } from './demo-keys.mjs';
import { SERVER_NODE_FLAGS } from './node-flags.mjs';

const root = new URL('..', import.meta.url).pathname;
const SERVER_PORT = Number(process.env.PORT ?? 8080);
const HUB_PORT = Number(process.env.HUB_PORT ?? 8081);
const host = process.env.HOST ?? '127.0.0.1';
const consoleUrl = `http://${host}:${SERVER_PORT}`;
const hubUrl = `http://${host}:${HUB_PORT}`;

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds when any source is newer than what was built: the console, then server and Hub. */
const builtAt = (file) => (existsSync(join(root, file)) ? statSync(join(root, file)).mtimeMs : 0);
const sourcesAt = Math.max(
  ...['apps/web/src', 'apps/server/src', 'apps/hub/src', 'packages'].map((d) => newestMtime(join(root, d))),
);
if (
  sourcesAt >
  Math.min(builtAt('apps/web/dist/index.html'), builtAt('apps/server/dist/main.mjs'), builtAt('apps/hub/dist/main.mjs'))
) {
  console.info('Building the console, server and Hub…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const started = Date.now();

// Each program's own Ed25519 key, in its data directory (kept across restarts); the demo pins
// each public half on the other side. No secret is shared between them.
const trust = demoTrust(join(root, 'data/server'), join(root, 'data/hub'));

const children = [];

function run(name, entry, env) {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let buffer = '';
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) show(name, line);
  });
  child.on('exit', (code) => {
    if (!stopping) {
      console.error(`${name} stopped (exit ${code}).`);
      stop(code ?? 1);
    }
  });
  children.push(child);
}

/** Readable demo output: emailed codes stand out; request noise stays in the JSON logs. */
function show(name, line) {
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    console.info(`[${name}] ${line}`);
    return;
  }
  if (entry.mail) {
    console.info(`\n✉  Mail to ${entry.mail.to} — ${entry.mail.subject}\n${entry.mail.text.replace(/^/gm, '   ')}\n`);
  } else if (entry.level >= 40 || (!entry.request_id && entry.level >= 30)) {
    console.info(`[${name}] ${entry.msg}`);
  }
}

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500);
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

run('hub', 'apps/hub/dist/main.mjs', {
  HOST: host,
  PORT: String(HUB_PORT),
  SEED_DEMO: '1',
  DEMO_SERVER_KEY: trust.serverKey,
  DEMO_SERVER_URL: consoleUrl,
  ALLOWED_ORIGINS: process.env.ALLOWED_ORIGINS ?? `${consoleUrl},http://localhost:${SERVER_PORT}`,
});
run('server', 'apps/server/dist/main.mjs', {
  HOST: host,
  PORT: String(SERVER_PORT),
  SEED_DEMO: '1',
  DEMO_HUB_URL: hubUrl,
  DEMO_HUB_KEY: trust.hubKey,
});

// A demo SAML identity provider for the SSO walk-through (README, "Single sign-on"): development
// only. It is the tests' identity provider (apps/server/src/test), run with tsx, so it needs the dev
// dependencies and is never part of a production build; DEMO_IDP=0 leaves it out.
const DEMO_IDP_PORT = Number(process.env.DEMO_IDP_PORT ?? 8082);
const demoIdpUrl = `http://127.0.0.1:${DEMO_IDP_PORT}`;
const tsxBin = join(root, 'node_modules/.bin/tsx');
const demoIdp = process.env.DEMO_IDP !== '0' && process.env.NODE_ENV !== 'production' && existsSync(tsxBin);
if (demoIdp) {
  const child = spawn(tsxBin, ['apps/server/src/test/demo-idp.ts'], {
    cwd: root,
    env: { ...process.env, DEMO_IDP_PORT: String(DEMO_IDP_PORT) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // Not a reason to stop the console: SSO is then set up against a real identity provider.
  child.on('exit', (code) => {
    if (!stopping) console.error(`The demo identity provider stopped (exit ${code}).`);
  });
  children.push(child);
}

async function ready(url) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not become ready`);
}

await Promise.all([ready(`${consoleUrl}/readyz`), ready(`${hubUrl}/readyz`)]);
console.info(`
  Latchkey is running (ready in ${((Date.now() - started) / 1000).toFixed(1)} s).

  Console   ${consoleUrl}
  Hub       ${hubUrl}

  Demo sign-in   alex@northwind.example  /  Latchkey-demo-2026   (super admin)
  Other admins   adam@ (admin), ivy@ (integrator), rory@ (recovery agent),
                 sam@ (admin of Northwind and owner of a family team) — all @northwind.example, same password
  Email codes    and recovery notifications appear below as "✉ Mail to …"
                 (set SMTP_URL, read by the server and the Hub, to send real mail)${
                   demoIdp
                     ? `
  SSO demo       fiona@alpine.example (super admin of Alpine Ski House), same password: at
                 Settings → SSO connector add a connector, metadata URL ${demoIdpUrl}/metadata;
                 the demo identity provider signs in felix@, gus@ or fiona@alpine.example`
                     : ''
                 }

  Ctrl-C stops both.
`);
