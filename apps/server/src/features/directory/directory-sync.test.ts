import { randomUUID } from 'node:crypto';
import { DIRECTORY_PRESETS, type DirectoryRun, type HubTokens, hubDirectoryApplyEndpoint } from '@latchkey/contracts';
import { signCall } from '@latchkey/runtime';
import {
  activeDirectoryLdif,
  BASE_DN,
  emailOf,
  groupMembers,
  hasNoMail,
  isDisabled,
  ldifEntries,
  loginOf,
  ROOT_DN,
  ROOT_PASSWORD,
  SYNC_DN,
  SYNC_PASSWORD,
  slapdAvailable,
  startSlapd,
  type TestDirectory,
  userDn,
} from '@latchkey/runtime/testing';
import { Attribute, Change, Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

/**
 * Directory sync end to end: a real slapd in Active Directory's shape, the real Hub reading it, and
 * this server applying the changes it sends over the signed channel.
 */
if (!slapdAvailable() && process.env.CI) throw new Error('slapd is missing: apt-get install -y slapd ldap-utils');
const suite = slapdAvailable() ? describe : describe.skip;
if (!slapdAvailable())
  console.warn('slapd is not installed: the directory sync tests are skipped on this machine (CI runs them)');

const USERS = 30;
const GROUPS = 4;
const GROUP_SIZE = 8;

let h: Harness;
let directory: TestDirectory;
let hub: HubTokens;
let teamId: string;
/** A console member the directory also lists (the directory takes them over) and an administrator it lists (never changed). */
let takeover: string;

const hubPost = async <T = Record<string, unknown>>(path: string, body: Record<string, unknown> = {}) => {
  const res = await fetch(`${h.hub?.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${hub.access}` },
    body: JSON.stringify({ team_slug: 'northwind', ...body }),
  });
  return { status: res.status, body: (await res.json()) as T & { code?: string; message_key?: string; description?: string } };
};
const form = (overrides: Record<string, unknown> = {}) => ({
  kind: 'active_directory',
  url: directory.ldapsUrl,
  security: 'ldaps',
  ca_pem: directory.caPem,
  bind_dn: SYNC_DN,
  bind_password: SYNC_PASSWORD,
  base_dns: [BASE_DN],
  mapping: DIRECTORY_PRESETS.active_directory,
  ...overrides,
});
const members = (where = 'true', params: unknown[] = []) =>
  h.db.query<{ email: string; status: string; source: string; directory_id: string | null }>(
    `select email, status, source, directory_id from members where team_id = $1 and deboarded_at is null and ${where} order by email`,
    [teamId, ...params],
  );
async function asRoot<T>(work: (root: Client) => Promise<T>): Promise<T> {
  const root = new Client({ url: directory.url });
  await root.bind(ROOT_DN, ROOT_PASSWORD);
  try {
    return await work(root);
  } finally {
    await root.unbind();
  }
}

suite('directory sync', () => {
  beforeAll(async () => {
    h = await startHarness({ hub: true });
    const [team] = await h.db.query<{ id: string }>("select id from teams where slug = 'northwind'");
    teamId = team?.id as string;
    const [member] = await h.db.query<{ email: string }>(
      `select email from members where team_id = $1 and deboarded_at is null and status = 'active' and email like '%@northwind.example'
         and email not in ($2, $3, $4, $5, $6) order by email limit 1`,
      [teamId, ...Object.values(DEMO_ADMINS).slice(0, 5)],
    );
    takeover = member?.email as string;
    // Licences enough for everyone the directory lists.
    await h.db.query(
      `update teams set total_licences = (select count(*) from members where team_id = $1 and deboarded_at is null and licensed) + 100 where id = $1`,
      [teamId],
    );
    const extra = ldifEntries([
      {
        dn: `cn=Taken Over,ou=People,${BASE_DN}`,
        objectClass: ['user', 'securityPrincipal'],
        cn: 'Taken Over',
        sn: 'Over',
        displayName: 'Taken Over',
        sAMAccountName: 'takeover',
        mail: takeover,
        userAccountControl: '512',
        objectGUID: Buffer.from('0123456789abcdef'),
        instanceType: '4',
        nTSecurityDescriptor: Buffer.from([1, 0]),
        objectCategory: `CN=Person,CN=Schema,CN=Configuration,${BASE_DN}`,
      },
      {
        dn: `cn=The Admin,ou=People,${BASE_DN}`,
        objectClass: ['user', 'securityPrincipal'],
        cn: 'The Admin',
        sn: 'Admin',
        displayName: 'Renamed By Directory',
        sAMAccountName: 'admin',
        mail: DEMO_ADMINS.admin,
        userAccountControl: '514',
        objectGUID: Buffer.from('fedcba9876543210'),
        instanceType: '4',
        nTSecurityDescriptor: Buffer.from([1, 0]),
        objectCategory: `CN=Person,CN=Schema,CN=Configuration,${BASE_DN}`,
      },
    ]);
    directory = await startSlapd(activeDirectoryLdif({ users: USERS, groups: GROUPS, groupSize: GROUP_SIZE }) + extra);
    const signedIn = await h.signIn(DEMO_ADMINS.superAdmin);
    const res = await fetch(`${h.hub?.url}/auth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${signedIn.aux_code?.access}` },
      body: JSON.stringify({ team_slug: 'northwind', device: {} }),
    });
    hub = (await res.json()) as HubTokens;
  }, 120_000);
  afterAll(async () => {
    await directory?.stop();
    await h?.close();
  });

  it('refuses to save a connection whose bind fails, in words, and keeps nothing', async () => {
    const wrong = await hubPost('/directory/settings/save/', form({ bind_password: 'not-the-password' }));
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'directory_unreadable', message_key: 'directory.error.bind_refused' });
    const untrusted = await hubPost('/directory/settings/save/', form({ ca_pem: directory.otherCaPem }));
    expect(untrusted.body.message_key).toBe('directory.error.certificate_not_trusted');
    const missing = await hubPost('/directory/test/', form({ base_dns: [`ou=Nowhere,${BASE_DN}`] }));
    expect(missing.body.message_key).toBe('directory.error.base_dn_not_found');
    expect((await hubPost('/directory/settings/')).body).toMatchObject({ connection: null, runs: [] });
  });

  it('tests a connection: counts and five sample users, as mapped', async () => {
    const test = await hubPost<{ users: number; groups: number; samples: { email: string }[] }>('/directory/test/', form());
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ users: USERS + 2, groups: GROUPS });
    expect(test.body.samples).toHaveLength(5);
  });

  it('saves the password sealed, never sends it back, and uses it only for the saved address', async () => {
    const saved = await hubPost('/directory/settings/save/', form());
    expect(saved.status).toBe(200);
    const settings = await hubPost('/directory/settings/');
    expect(settings.body).toMatchObject({ connection: { has_password: true, url: directory.ldapsUrl } });
    expect(JSON.stringify(settings.body)).not.toContain(SYNC_PASSWORD);
    const [row] = await (h.hub?.db.query<{ sealed: string }>(
      'select bind_password_sealed as sealed from directory_connections',
    ) ?? []);
    expect(row?.sealed).toMatch(/^v1\./);
    expect(row?.sealed).not.toContain(SYNC_PASSWORD);
    // An empty password keeps the saved one, for the saved address only: never to a new one.
    expect((await hubPost('/directory/test/', form({ bind_password: '' }))).status).toBe(200);
    const elsewhere = await hubPost(
      '/directory/test/',
      form({ bind_password: '', url: directory.ldapsUrl.replace('127.0.0.1', 'localhost') }),
    );
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.code).toBe('invalid_input');
  });

  it('will not sync before a preview is applied', async () => {
    const early = await hubPost('/directory/sync/');
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('directory_preview_first');
  });

  it('previews without changing anything, then applies: invites, takes a console member over, never touches an administrator, fills groups', async () => {
    const before = await members();
    const preview = await hubPost<{ run: DirectoryRun }>('/directory/preview/');
    expect(preview.status).toBe(200);
    const enabled = Array.from({ length: USERS }, (_, i) => i).filter((i) => !isDisabled(i));
    expect(preview.body.run).toMatchObject({ outcome: 'previewed', actor: DEMO_ADMINS.superAdmin });
    expect(preview.body.run.counts).toMatchObject({
      invite: enabled.length,
      update: 1,
      admin_skipped: 1,
      group_create: GROUPS,
      group_fill: GROUPS,
    });
    expect(preview.body.run.sample.update).toEqual([takeover]);
    expect(await members()).toEqual(before);

    const applied = await hubPost<{ run: DirectoryRun }>('/directory/apply/', { run_id: preview.body.run.id });
    expect(applied.status).toBe(200);
    expect(applied.body.run.outcome).toBe('applied');
    const owned = await members(`source = 'directory'`);
    // Without mail, the userPrincipalName stands in.
    const addressOf = (i: number) => (hasNoMail(i) ? `${loginOf(i)}@corp.example.test` : emailOf(i));
    expect(owned.map((m) => m.email).sort()).toEqual([...enabled.map(addressOf), takeover].sort());
    expect(owned.find((m) => m.email === takeover)).toMatchObject({ status: 'active', directory_id: expect.any(String) });
    expect(owned.filter((m) => m.email !== takeover).every((m) => m.status === 'invited')).toBe(true);
    // The administrator (disabled and renamed in the directory) is as they were.
    const [admin] = await h.db.query<{ source: string }>('select source from members where team_id = $1 and email = $2', [
      teamId,
      DEMO_ADMINS.admin,
    ]);
    expect(admin?.source ?? 'console').toBe('console');

    // Group 0 holds groups 1 and 2 (2 holds 0 back) and 1 holds 3: flattened, the enabled users of all four.
    const [group] = await h.db.query<{ n: number }>(
      `select count(*)::int as n from group_members gm join groups g on g.id = gm.group_id where g.team_id = $1 and g.name = 'Team 0 – Ünits'`,
      [teamId],
    );
    const expected = new Set([0, 1, 2, 3].flatMap((g) => groupMembers(g, USERS, GROUP_SIZE).users).filter((i) => !isDisabled(i)));
    expect(group?.n).toBe(expected.size);

    // Each change is in the event log, by "directory sync".
    const events = await h.db.query<{ actor: string; activity: string }>(
      `select event->>'actor' as actor, event->>'activity' as activity from event_outbox where team_id = $1 and event->>'actor' = 'directory sync'`,
      [teamId],
    );
    expect(events.filter((e) => e.activity === 'member.invited')).toHaveLength(enabled.length);
    expect(events.some((e) => e.activity === 'group.created')).toBe(true);
    // The console's invitation mail, sent by the directory.
    await h.mailSent();
    expect(h.mail.some((m) => m.to.includes('user0@example.test'))).toBe(true);
  });

  it('shows each member’s source and keeps the groups the directory owns read-only in the console', async () => {
    const admin = (await h.signIn(DEMO_ADMINS.admin)).token.access;
    type Listed = { results: { email: string; source: string }[] };
    const owned = await h.post<Listed>('/api/v1/team/members/', { source: ['directory'], page_size: 100 }, admin);
    expect(owned.status).toBe(200);
    expect(owned.body.results.map((m) => m.email)).toEqual((await members(`source = 'directory'`)).map((m) => m.email));
    expect(owned.body.results.every((m) => m.source === 'directory')).toBe(true);
    const own = await h.post<Listed>('/api/v1/team/members/', { source: ['console', 'scim'], page_size: 100 }, admin);
    expect(own.body.results.length).toBeGreaterThan(0);
    expect(own.body.results.some((m) => m.source === 'directory' || m.email === takeover)).toBe(false);
    const profile = await h.post('/api/v1/team/member/devices/', { email: takeover }, admin);
    expect(profile.body).toMatchObject({ member: { email: takeover, source: 'directory' } });

    const [group] = await h.db.query<{ id: string }>(`select id from groups where team_id = $1 and name = 'Team 0 – Ünits'`, [
      teamId,
    ]);
    const id = group?.id as string;
    const before = await h.post<{ members: unknown[] }>('/api/v1/team/group/', { id }, admin);
    expect(before.body).toMatchObject({ name: 'Team 0 – Ünits', directory_managed: true, scim_managed: false });
    const someone = (await members(`source = 'directory'`))[0]?.email as string;
    for (const [path, body] of [
      ['/api/v1/team/group/edit/', { id, name: 'Renamed In The Console' }],
      ['/api/v1/team/group/remove/', { id: [id] }],
      ['/api/v1/team/group/members/add/', { id, emails: [DEMO_ADMINS.admin] }],
      ['/api/v1/team/group/members/remove/', { id, emails: [someone] }],
    ] as const) {
      const res = await h.post(path, body, admin);
      expect(res.status, path).toBe(403);
      expect(res.body, path).toMatchObject({ code: 'forbidden', message_key: 'errors.group_directory_managed' });
    }
    expect((await h.post('/api/v1/team/group/', { id }, admin)).body).toEqual(before.body);
  });

  it('suspends a member disabled in the directory on "sync now", and nothing else changes', async () => {
    await asRoot((root) =>
      root.modify(userDn(0), [
        new Change({ operation: 'replace', modification: new Attribute({ type: 'userAccountControl', values: ['514'] }) }),
      ]),
    );
    const run = await hubPost<{ run: DirectoryRun }>('/directory/sync/');
    expect(run.status).toBe(200);
    expect(run.body.run).toMatchObject({ outcome: 'applied', trigger: 'sync_now' });
    expect(run.body.run.counts).toMatchObject({ suspend: 1, invite: 0, update: 0 });
    expect((await members('email = $2', [`${loginOf(0)}@example.test`]))[0]?.status).toBe('suspended');
    const again = await hubPost<{ run: DirectoryRun }>('/directory/sync/');
    expect(again.body.run.outcome).toBe('unchanged');
  });

  it('applies nothing when the directory changed between preview and apply', async () => {
    const preview = await hubPost<{ run: DirectoryRun }>('/directory/preview/');
    await asRoot((root) =>
      root.add(`cn=Late Comer,ou=People,${BASE_DN}`, {
        objectClass: ['user', 'securityPrincipal'],
        cn: 'Late Comer',
        sn: 'Comer',
        mail: 'late@example.test',
        userAccountControl: '512',
        objectGUID: 'latecomer0123456',
        instanceType: '4',
        nTSecurityDescriptor: 'x',
        objectCategory: `CN=Person,CN=Schema,CN=Configuration,${BASE_DN}`,
      }),
    );
    const before = await members();
    const apply = await hubPost('/directory/apply/', { run_id: preview.body.run.id });
    expect(apply.status).toBe(409);
    expect(apply.body).toMatchObject({ code: 'directory_changed', message_key: 'directory.changed_since_preview' });
    expect(await members()).toEqual(before);
    const runs = (await hubPost<{ runs: DirectoryRun[] }>('/directory/settings/')).body.runs;
    expect(runs[0]).toMatchObject({ trigger: 'apply', outcome: 'failed', error_code: 'directory_changed' });
  });

  describe('the server side of the channel', () => {
    const send = (changes: unknown[], key = h.hub?.key) => {
      const path = hubDirectoryApplyEndpoint.path;
      const { token, json } = signCall(key as never, 'demo-hub', path, 'northwind', {
        team_slug: 'northwind',
        run_id: randomUUID(),
        changes,
      });
      return fetch(h.url + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: json,
      });
    };

    it('refuses a call not signed by the team’s Hub', async () => {
      const res = await fetch(`${h.url}${hubDirectoryApplyEndpoint.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          team_slug: 'northwind',
          run_id: randomUUID(),
          changes: [{ op: 'member_suspend', member_id: randomUUID() }],
        }),
      });
      expect(res.status).toBe(401);
    });

    it('refuses a whole batch that touches an administrator, writing none of it', async () => {
      const res = await send([
        { op: 'member_invite', directory_id: 'batch-1', email: 'batch-one@example.test', name: 'Batch One' },
        { op: 'member_invite', directory_id: 'batch-2', email: DEMO_ADMINS.admin, name: 'An Administrator' },
      ]);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { code: string }).code).toBe('directory_change_refused');
      expect(await members('email = $2', ['batch-one@example.test'])).toEqual([]);
    });

    it('refuses invitations past the free licences, all of them', async () => {
      await h.db.query(
        `update teams set total_licences = (select count(*) from members where team_id = $1 and deboarded_at is null and licensed) + 1 where id = $1`,
        [teamId],
      );
      const res = await send([
        { op: 'member_invite', directory_id: 'cap-1', email: 'cap-one@example.test', name: 'Cap One' },
        { op: 'member_invite', directory_id: 'cap-2', email: 'cap-two@example.test', name: 'Cap Two' },
      ]);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('licence_limit_exceeded');
      expect(await members(`email like 'cap-%'`)).toEqual([]);
    });

    it('applies the same batch twice as once', async () => {
      const batch = [{ op: 'member_invite', directory_id: 'twice-1', email: 'twice@example.test', name: 'Twice' }];
      const mailJobs = async () =>
        (await h.db.query<{ n: number }>(`select count(*)::int as n from job_queue.job where name = 'mail'`))[0]?.n;
      const queued = await mailJobs();
      expect((await send(batch)).status).toBe(200);
      const invitation = await mailJobs();
      expect(invitation).toBe((queued ?? 0) + 1);
      const second = await send(batch);
      expect(await second.json()).toEqual({ applied: 0, unchanged: 1 });
      expect(await members('email = $2', ['twice@example.test'])).toHaveLength(1);
      // The batch sent again queues no second invitation.
      expect(await mailJobs()).toBe(invitation);
    });
  });
});
