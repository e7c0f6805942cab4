// Four-eyes approval of the Hub's settings over HTTP: the real server and the real Hub, the Hub
// asking the server over the signed channel. Each Hub class with the policy on (202, nothing
// changed, another super admin approves, the requester's repeat runs once, a changed payload is a
// new request, the requester cannot approve) and off (the answers of today).
import { type ApprovalPolicy, type ApprovalRequest, DEFAULT_APPROVAL_POLICY, type HubTokens } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS, SECURITY_DEMO_ADMINS, seedSecurityDemo } from '../demo/index.ts';

const P = '/api/v1/team/approvals';
let h: Harness;
const server = new Map<string, string>();
const hub = new Map<string, string>();

async function signInBoth(who: string, email: string) {
  const signedIn = await h.signIn(email);
  server.set(who, signedIn.token.access);
  const res = await fetch(`${h.hub?.url}/auth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${signedIn.aux_code?.access}` },
    body: JSON.stringify({ team_slug: 'northwind', device: {} }),
  });
  expect(res.status).toBe(200);
  hub.set(who, ((await res.json()) as HubTokens).access);
}

const hubPost = async (who: string, path: string, body: Record<string, unknown> = {}) => {
  const res = await fetch(`${h.hub?.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${hub.get(who)}` },
    body: JSON.stringify({ team_slug: 'northwind', ...body }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  h = await startHarness({ hub: true });
  await seedSecurityDemo(h.db);
  await signInBoth('alex', DEMO_ADMINS.superAdmin);
  await signInBoth('tess', SECURITY_DEMO_ADMINS.tess);
  await signInBoth('adam', DEMO_ADMINS.admin);
}, 120_000);
afterAll(() => h?.close());

async function setPolicy(change: Partial<ApprovalPolicy>) {
  await h.db.query("delete from approval_policies where team_id = (select id from teams where slug = 'northwind')");
  const res = await h.post(`${P}/policy/update/`, { policy: { ...DEFAULT_APPROVAL_POLICY, ...change } }, server.get('alex'));
  expect(res.status, res.text).toBe(200);
}
const decide = (who: string, id: string, decision: 'approve' | 'reject') =>
  h.post<ApprovalRequest>(`${P}/decide/`, { id, decision, comment: 'checked' }, server.get(who));
const retention = async () => (await hubPost('alex', '/audit/logs/configuration/fetch/')).body.delete_after_days as number | null;
const setRetention = (days: number, who = 'alex') =>
  hubPost(who, '/audit/logs/configuration/update/', { delete_after_days: days });

function requestIdOf(res: { status: number; body: Record<string, unknown> }): string {
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.body).toMatchObject({ code: 'approval_required', message_key: 'errors.approval_required' });
  expect(res.body.message_values).toMatchObject({ requested_at: expect.any(String) });
  return res.body.request_id as string;
}

describe('with the policy off', () => {
  test('every Hub call answers as it always did', async () => {
    await setPolicy({ enabled: false });
    const longer = await setRetention(400);
    expect(longer.status).toBe(200);
    expect(longer.body.delete_after_days).toBe(400);
    const shorter = await setRetention(200);
    expect(shorter.status).toBe(200);
    expect(shorter.body.delete_after_days).toBe(200);
    const token = await hubPost('alex', '/audit/logs/pull/token/', { action: 'create' });
    expect(token.status).toBe(200);
    expect(token.body.token).toEqual(expect.any(String));
    const update = await hubPost('alex', '/siem/tool/update/', { id: crypto.randomUUID(), action: 'deactivate' });
    expect(update.body.code).not.toBe('approval_required');
    const sync = await hubPost('alex', '/directory/sync/');
    expect(sync.status).toBe(404);
    const [row] = await h.db.query<{ n: number }>('select count(*)::int as n from approval_requests');
    expect(row?.n).toBe(0);
  });

  test('with the policy on for other classes only, the Hub calls still run at once', async () => {
    await setPolicy({ enabled: true, actions: ['admins.add'] });
    expect((await setRetention(150)).status).toBe(200);
    expect(await retention()).toBe(150);
  });
});

describe('with the policy on', () => {
  test('shortening retention waits; another super admin approves; the repeat runs once', async () => {
    await setPolicy({ enabled: true, actions: ['eventlogs.retention_shortened'] });
    await setRetention(150);
    // Longer: nothing to approve.
    expect((await setRetention(180)).status).toBe(200);
    const id = requestIdOf(await setRetention(90));
    expect(await retention()).toBe(180);
    // The same payload again: the same request.
    expect(requestIdOf(await setRetention(90))).toBe(id);
    // Another payload: another request.
    expect(requestIdOf(await setRetention(60))).not.toBe(id);
    // The requester cannot approve, nor can an admin without super admin.
    expect((await decide('alex', id, 'approve')).body).toMatchObject({ code: 'approval_own_request' });
    expect((await decide('adam', id, 'approve')).status).toBe(403);
    const request = (await h.post<ApprovalRequest>(`${P}/request/`, { id }, server.get('tess'))).body;
    expect(request).toMatchObject({ action: 'eventlogs.retention_shortened', status: 'pending' });
    expect(request.changes).toEqual([{ key: 'delete_after_days', kind: 'changed', before: 180, after: 90 }]);
    expect(request.summary).toContain('90 days');
    const approved = await decide('tess', id, 'approve');
    expect(approved.body.status).toBe('approved');
    // Approval alone changes nothing at the Hub: the requester's repeat runs it.
    expect(await retention()).toBe(180);
    const repeat = await setRetention(90);
    expect(repeat.status).toBe(200);
    expect(repeat.body.delete_after_days).toBe(90);
    expect((await h.post<ApprovalRequest>(`${P}/request/`, { id }, server.get('alex'))).body.status).toBe('applied');
    // A second repeat does not run again: it is a new request.
    await setRetention(180);
    const again = await setRetention(90, 'alex');
    expect(requestIdOf(again)).not.toBe(id);
    expect(await retention()).toBe(180);
  });

  test('creating a pull token waits; the eligible approver is mailed', async () => {
    await setPolicy({ enabled: true, actions: ['siem.pull_token'] });
    const id = requestIdOf(await hubPost('alex', '/audit/logs/pull/token/', { action: 'create' }));
    await h.mailSent();
    expect(
      h.mail.some((m) => m.to.includes(SECURITY_DEMO_ADMINS.tess) && m.raw.includes('Create a token for the event pull API')),
    ).toBe(true);
    // Revoking only closes: never held up.
    expect((await hubPost('alex', '/audit/logs/pull/token/', { action: 'revoke' })).status).toBe(200);
    expect((await decide('tess', id, 'approve')).body.status).toBe('approved');
    const created = await hubPost('alex', '/audit/logs/pull/token/', { action: 'create' });
    expect(created.status).toBe(200);
    expect(created.body.token).toEqual(expect.any(String));
    // The token is the requester's alone: nobody else's identical call is claimed by the approval.
    expect(requestIdOf(await hubPost('alex', '/audit/logs/pull/token/', { action: 'create' }))).not.toBe(id);
  });

  test('switching the SIEM export off and removing its destination are asked; a rejected request never runs', async () => {
    await setPolicy({ enabled: true, actions: ['siem.off', 'siem.destination'] });
    const tool = crypto.randomUUID();
    const off = requestIdOf(await hubPost('alex', '/siem/tool/update/', { id: tool, action: 'deactivate' }));
    const removal = requestIdOf(await hubPost('alex', '/siem/tool/update/', { id: tool, action: 'delete' }));
    expect(off).not.toBe(removal);
    expect((await h.post<ApprovalRequest>(`${P}/request/`, { id: off }, server.get('tess'))).body.action).toBe('siem.off');
    expect((await h.post<ApprovalRequest>(`${P}/request/`, { id: removal }, server.get('tess'))).body.action).toBe(
      'siem.destination',
    );
    // Setting a destination is asked too; the server records its secret only as a hash.
    const secret = 'hec-token-never-at-the-server';
    const destination = requestIdOf(
      await hubPost('alex', '/siem/tools/configure/', {
        siem_tool: 'splunk',
        url: 'https://splunk.northwind.example',
        port: '8088',
        token: secret,
      }),
    );
    const asked = (await h.post<ApprovalRequest>(`${P}/request/`, { id: destination }, server.get('tess'))).body;
    expect(asked.action).toBe('siem.destination');
    expect(asked.payload.token).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(JSON.stringify(await h.db.query('select * from approval_requests'))).not.toContain(secret);
    // A test event sends nothing away: never asked.
    expect((await hubPost('alex', '/siem/tool/update/', { id: tool, action: 'test' })).status).toBe(404);
    expect((await decide('tess', off, 'reject')).body.status).toBe('rejected');
    expect(requestIdOf(await hubPost('alex', '/siem/tool/update/', { id: tool, action: 'deactivate' }))).not.toBe(off);
    // Approved: the repeat reaches the Hub's own answer (no such destination here).
    expect((await decide('tess', removal, 'approve')).body.status).toBe('approved');
    expect((await hubPost('alex', '/siem/tool/update/', { id: tool, action: 'delete' })).status).toBe(404);
  });

  test('directory sync settings and runs are asked', async () => {
    await setPolicy({ enabled: true, actions: ['directory.settings'] });
    const id = requestIdOf(await hubPost('alex', '/directory/sync/'));
    expect(requestIdOf(await hubPost('alex', '/directory/settings/delete/'))).not.toBe(id);
    expect((await decide('tess', id, 'approve')).body.status).toBe('approved');
    // Approved: the Hub runs the call (no connection saved here: its answer of today).
    expect((await hubPost('alex', '/directory/sync/')).status).toBe(404);
    expect((await h.post<ApprovalRequest>(`${P}/request/`, { id }, server.get('alex'))).body.status).toBe('applied');
  });
});

describe('exactly once, and closed when the server cannot answer', () => {
  test('two repeats of one approved request together: one runs, the other is a new request', async () => {
    await setPolicy({ enabled: true, actions: ['siem.off'] });
    const id = requestIdOf(await hubPost('alex', '/audit/logs/configuration/', { action: 'disable' }));
    expect((await decide('tess', id, 'approve')).body.status).toBe('approved');
    const both = await Promise.all([
      hubPost('alex', '/audit/logs/configuration/', { action: 'disable' }),
      hubPost('alex', '/audit/logs/configuration/', { action: 'disable' }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 202]);
    // Switching it on again tightens: never asked.
    expect((await hubPost('alex', '/audit/logs/configuration/', { action: 'enable' })).status).toBe(200);
  });

  test('the Hub refuses a gated call while the server is unreachable, and runs the others', async () => {
    await setPolicy({ enabled: false });
    const [registration] =
      (await h.hub?.db.query<{ id: string; server_url: string }>('select id, server_url from registrations limit 1')) ?? [];
    await h.hub?.db.query("update registrations set server_url = 'http://127.0.0.1:1' where id = $1", [registration?.id]);
    try {
      const refused = await setRetention(30);
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({
        code: 'approval_check_unavailable',
        message_key: 'errors.approval_check_unavailable',
      });
      expect(await retention()).not.toBe(30);
      // A longer retention is never asked: it runs.
      expect((await setRetention(5000)).status).toBe(200);
    } finally {
      await h.hub?.db.query('update registrations set server_url = $2 where id = $1', [
        registration?.id,
        registration?.server_url,
      ]);
    }
  });
});

describe('the signed channel', () => {
  test('refuses a call not signed by the team Hub', async () => {
    const res = await h.post('/api/v1/hub/approvals/check/', {
      team_slug: 'northwind',
      sid: crypto.randomUUID(),
      user_id: crypto.randomUUID(),
      action: 'siem.off',
      call: 'siemToolUpdate',
      payload: {},
      summary: 'x',
    });
    expect(res.status).toBe(401);
  });
});
