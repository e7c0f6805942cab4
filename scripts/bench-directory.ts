// `npm run bench` (directory sync): a real slapd loaded with BENCH_DIRECTORY_USERS users (default
// 10,000) in Active Directory's shape and BENCH_DIRECTORY_GROUPS groups (default 500, nested, with a
// cycle), read by a real Hub and applied to a real server (on TEST_DATABASE_URL when set, else
// embedded): the first preview, its apply, and a sync with nothing changed, with the process's
// peak memory while the Hub reads (the reader holds one page of raw entries at a time).
import { DIRECTORY_PRESETS, type HubTokens } from '@latchkey/contracts';
import { activeDirectoryLdif, BASE_DN, SYNC_DN, SYNC_PASSWORD, slapdAvailable, startSlapd } from '@latchkey/runtime/testing';
import { DEMO_ADMINS } from '../apps/server/src/features/demo/index.ts';
import { startHarness } from '../apps/server/src/test/harness.ts';

const USERS = Number(process.env.BENCH_DIRECTORY_USERS ?? 10_000);
const GROUPS = Number(process.env.BENCH_DIRECTORY_GROUPS ?? 500);

if (!slapdAvailable()) {
  console.info('directory sync bench skipped: install slapd (apt-get install -y slapd ldap-utils)');
  process.exit(0);
}
if (process.env.TEST_DATABASE_URL) process.env.TEST_DB = 'postgres';

const loadStarted = performance.now();
const directory = await startSlapd(activeDirectoryLdif({ users: USERS, groups: GROUPS, groupSize: 40 }));
const loadSeconds = (performance.now() - loadStarted) / 1000;
const h = await startHarness({ hub: true });
await h.db.query("update teams set total_licences = -1 where slug = 'northwind'");
const signedIn = await h.signIn(DEMO_ADMINS.superAdmin);
const tokens = (await (
  await fetch(`${h.hub?.url}/auth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${signedIn.aux_code?.access}` },
    body: JSON.stringify({ team_slug: 'northwind', device: {} }),
  })
).json()) as HubTokens;

async function hub(path: string, body: Record<string, unknown> = {}) {
  const res = await fetch(`${h.hub?.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.access}` },
    body: JSON.stringify({ team_slug: 'northwind', ...body }),
  });
  const json = (await res.json()) as { run?: { id: string; counts: Record<string, number> }; description?: string };
  if (!res.ok) throw new Error(`${path}: ${res.status} ${json.description}`);
  return json;
}

async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; value: T; peakMb: number }> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  try {
    const value = await work();
    return { seconds: (performance.now() - started) / 1000, value, peakMb: peak / 1e6 };
  } finally {
    clearInterval(sampler);
  }
}

await hub('/directory/settings/save/', {
  kind: 'active_directory',
  url: directory.ldapsUrl,
  security: 'ldaps',
  ca_pem: directory.caPem,
  bind_dn: SYNC_DN,
  bind_password: SYNC_PASSWORD,
  base_dns: [BASE_DN],
  mapping: DIRECTORY_PRESETS.active_directory,
});
const baseMb = process.memoryUsage().rss / 1e6;
const preview = await timed(() => hub('/directory/preview/'));
const apply = await timed(() => hub('/directory/apply/', { run_id: preview.value.run?.id }));
const again = await timed(() => hub('/directory/sync/'));

const counts = preview.value.run?.counts ?? {};
console.info(
  `directory sync, ${USERS} users and ${GROUPS} nested groups from slapd (${h.db.kind}; slapadd ${loadSeconds.toFixed(1)} s):`,
);
console.info(
  `  first preview        ${preview.seconds.toFixed(2)} s (target 20 s): ${counts.invite} to invite, ${counts.group_create} groups`,
);
console.info(`  its apply            ${apply.seconds.toFixed(2)} s (target 60 s)`);
console.info(`  nothing changed      ${again.seconds.toFixed(2)} s (target 5 s)`);
console.info(
  `  memory while reading ${(preview.peakMb - baseMb).toFixed(0)} MB above the ${baseMb.toFixed(0)} MB before (server, Hub and bench in one process)`,
);
await directory.stop();
await h.close();
process.exit(0);
