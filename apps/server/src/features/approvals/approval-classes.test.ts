// Every action class of the server under four-eyes approval, over HTTP: with the policy on (and
// listing the class) the call answers 202 and changes nothing; once another super admin approves,
// the same service runs it (on_approval) or the requester's repeated call does, once
// (by_requester); with the policy off the call answers as it always did.
import {
  APPROVAL_ACTIONS,
  type ApprovalAction,
  type ApprovalPolicy,
  type ApprovalRequest,
  DEFAULT_APPROVAL_POLICY,
  POLICY_ACTION_CODES,
} from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, type Reply, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS, SECURITY_DEMO_ADMINS, seedSecurityDemo } from '../demo/index.ts';

const P = '/api/v1/team/approvals';
let h: Harness;
let alex = '';
let tess = '';
let members: string[] = [];

beforeAll(async () => {
  h = await startHarness();
  await seedSecurityDemo(h.db);
  alex = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
  tess = (await h.signIn(SECURITY_DEMO_ADMINS.tess)).token.access;
  members = (
    await h.db.query<{ email: string }>(
      `select email from members where team_id = (select id from teams where slug = 'northwind')
         and deboarded_at is null order by email limit 6`,
    )
  ).map((m) => m.email);
}, 120_000);
afterAll(() => h?.close());

async function setPolicy(change: Partial<ApprovalPolicy>) {
  await h.db.query("delete from approval_policies where team_id = (select id from teams where slug = 'northwind')");
  const res = await h.post(`${P}/policy/update/`, { policy: { ...DEFAULT_APPROVAL_POLICY, ...change } }, alex);
  expect(res.status, res.text).toBe(200);
}
const approve = (id: string) => h.post<ApprovalRequest>(`${P}/decide/`, { id, decision: 'approve', comment: 'ok' }, tess);

/**
 * Asks with the policy on (listing only `action`), checks that nothing ran, has Tess approve, and
 * returns the request once run (an on_approval one by the approval, a by_requester one by Alex's repeated call).
 */
async function underApproval(action: ApprovalAction, path: string, body: object, unchanged?: () => Promise<void>) {
  await setPolicy({ enabled: true, actions: [action] });
  const asked = await h.post(path, body, alex);
  expect(asked.status, `${action}: ${asked.text}`).toBe(202);
  const id = (asked.body as { request_id: string }).request_id;
  await unchanged?.();
  const approved = await approve(id);
  expect(approved.status, approved.text).toBe(200);
  expect(approved.body.action).toBe(action);
  let repeated: Reply | undefined;
  if (approved.body.apply === 'by_requester') {
    expect(approved.body.status).toBe('approved');
    repeated = await h.post(path, body, alex);
    expect(repeated.status, repeated.text).toBe(200);
    // Once: the same call again is a new request.
    const again = await h.post(path, body, alex);
    expect(again.status).toBe(202);
    expect((again.body as { request_id: string }).request_id).not.toBe(id);
  }
  const done = (await h.post<ApprovalRequest>(`${P}/request/`, { id }, alex)).body;
  expect(done.status, `${action}: ${done.closed_reason}`).toBe('applied');
  return { request: done, repeated };
}

/** The call with the policy off: it answers as it always did (never 202). */
async function withPolicyOff(path: string, body: object, status = 200) {
  await setPolicy({ enabled: false });
  const res = await h.post(path, body, alex);
  expect(res.status, res.text).toBe(status);
  return res;
}

const adminEmails = async () =>
  ((await h.post('/api/v1/team/admin/members/', {}, alex)).body as { admins: { email: string }[] }).admins.map((a) => a.email);

describe('every action class, with the policy on and off', () => {
  const covered = new Set<string>();
  afterAll(() => {
    // Every class the server serves is exercised here (the Hub's classes: approvals-hub.test.ts).
    const server = POLICY_ACTION_CODES.filter((c) => APPROVAL_ACTIONS[c].program === 'server' && c !== 'admins.scopes');
    expect(server.filter((c) => !covered.has(c))).toEqual([]);
  });

  test('admins: add, remove, reset sign-in', async () => {
    const add = { email: 'class-add@northwind.example', scopes: ['admin'] };
    await underApproval('admins.add', '/organization/admin/user/add/', add, async () =>
      expect(await adminEmails()).not.toContain(add.email),
    );
    expect(await adminEmails()).toContain(add.email);
    await withPolicyOff('/organization/admin/user/add/', { ...add, email: 'class-add2@northwind.example' });
    const remove = { action: 'remove_admin', email: add.email };
    await underApproval('admins.remove', '/organization/admin/user/remove/', remove, async () =>
      expect(await adminEmails()).toContain(add.email),
    );
    expect(await adminEmails()).not.toContain(add.email);
    await withPolicyOff('/organization/admin/user/remove/', { action: 'remove_admin', email: 'class-add2@northwind.example' });
    const reset = { email: SECURITY_DEMO_ADMINS.reese, reset_auth: true };
    await underApproval('admins.reset_sign_in', '/organization/admin/auth/reset/', reset);
    await withPolicyOff('/organization/admin/auth/reset/', reset);
    for (const c of ['admins.add', 'admins.remove', 'admins.reset_sign_in']) covered.add(c);
  });

  test('policies: a relaxing change and a restore wait; a tightening change does not', async () => {
    const team = async () =>
      ((await h.post('/api/v1/policy/team/', {}, alex)).body as { policy_json: Record<string, { policy: unknown }> }).policy_json;
    await withPolicyOff('/api/v1/policy/team/update/', { policy_json: { 'autolock.minutes': { policy: 10 } } });
    await underApproval(
      'policies.relax',
      '/api/v1/policy/team/update/',
      { policy_json: { 'autolock.minutes': { policy: 60 } } },
      async () => expect((await team())['autolock.minutes']?.policy).toBe(10),
    );
    expect((await team())['autolock.minutes']?.policy).toBe(60);
    // Tightening with the policy on: at once.
    await setPolicy({ enabled: true, actions: ['policies.relax'] });
    const tighter = await h.post('/api/v1/policy/team/update/', { policy_json: { 'autolock.minutes': { policy: 5 } } }, alex);
    expect(tighter.status, tighter.text).toBe(200);
    const history = (await h.post<{ results: { id: string }[] }>('/api/v1/policy/team/history/', {}, alex)).body.results;
    const restore = { id: history[1]?.id as string };
    await underApproval('policies.restore', '/api/v1/policy/team/history/restore/', restore);
    await withPolicyOff('/api/v1/policy/team/history/restore/', restore);
    covered.add('policies.relax');
    covered.add('policies.restore');
  });

  test('SSO: connectors, Require SSO off, exclusions', async () => {
    const created = await underApproval('sso.connector', '/sso/login/config/create/', {
      config_name: 'Approved IdP',
      idp_type: 'okta',
    });
    expect(created.request.summary).toContain('Approved IdP');
    await withPolicyOff('/sso/login/config/create/', { config_name: 'Direct IdP', idp_type: 'okta' });
    await underApproval('sso.require_off', '/sso/login/policy/update/', { enforce_sso: false });
    await withPolicyOff('/sso/login/policy/update/', { enforce_sso: false });
    const exclusion = { add_excluded_admins: [SECURITY_DEMO_ADMINS.tess] };
    await underApproval('sso.exclusions', '/sso/login/manage/excluded/admins/', exclusion);
    await withPolicyOff('/sso/login/manage/excluded/admins/', { remove_excluded_admins: [SECURITY_DEMO_ADMINS.tess] });
    for (const c of ['sso.connector', 'sso.require_off', 'sso.exclusions']) covered.add(c);
  });

  test('SCIM: a new connector and a rotated token are shown to the requester once approved; revoke', async () => {
    const created = await underApproval('scim.connector', '/api/v1/team/scim/connector/create/', {
      idp: 'entra',
      name: 'Approved',
    });
    const { connector, token } = (created.repeated as Reply).body as { connector: { id: string }; token: string };
    expect(token).toMatch(/^lkscim_/);
    // The token never appears in the request an approver sees.
    expect(JSON.stringify(created.request)).not.toContain(token);
    const direct = await withPolicyOff('/api/v1/team/scim/connector/create/', { idp: 'okta', name: 'Direct' });
    const rotated = await underApproval('scim.rotate', '/api/v1/team/scim/connector/rotate/', {
      id: connector.id,
      overlap_hours: 0,
    });
    expect(((rotated.repeated as Reply).body as { token: string }).token).not.toBe(token);
    await withPolicyOff('/api/v1/team/scim/connector/rotate/', { id: connector.id, overlap_hours: 0 });
    await underApproval('scim.revoke', '/api/v1/team/scim/connector/revoke/', { id: connector.id });
    await withPolicyOff('/api/v1/team/scim/connector/revoke/', {
      id: (direct.body as { connector: { id: string } }).connector.id,
    });
    for (const c of ['scim.connector', 'scim.rotate', 'scim.revoke']) covered.add(c);
  });

  test('members: the CSV export is handed to the requester once approved; removing several waits, one does not', async () => {
    const exported = await underApproval('members.export', '/api/v1/team/members/export/', {});
    expect(((exported.repeated as Reply).body as { csv: string }).csv).toContain(members[0]);
    await withPolicyOff('/api/v1/team/members/export/', {});
    const [a, b, c, d] = members;
    await underApproval('members.bulk_remove', '/api/v1/team/members/remove/', { emails: [a, b] });
    await setPolicy({ enabled: true, actions: ['members.bulk_remove'] });
    expect((await h.post('/api/v1/team/members/remove/', { emails: [c] }, alex)).status).toBe(200);
    await withPolicyOff('/api/v1/team/members/remove/', { emails: [d] });
    covered.add('members.export');
    covered.add('members.bulk_remove');
  });

  test('billing: licences removed and the plan changed', async () => {
    await underApproval('billing.licences_removed', '/api/v1/billing/licenses/remove/', { quantity: 1 });
    await withPolicyOff('/api/v1/billing/licenses/remove/', { quantity: 1 });
    await underApproval('billing.plan', '/api/v1/billing/plan/change/', { plan_id: 'standard-12' });
    await withPolicyOff('/api/v1/billing/plan/change/', { plan_id: 'enterprise-12' });
    covered.add('billing.licences_removed');
    covered.add('billing.plan');
  });

  test('the approval policy itself', async () => {
    await setPolicy({ enabled: true, actions: ['approvals.policy'] });
    const next = { ...DEFAULT_APPROVAL_POLICY, enabled: true, actions: ['approvals.policy'], approvers: 3 };
    const asked = await h.post(`${P}/policy/update/`, { policy: next }, alex);
    expect(asked.status).toBe(202);
    expect((await approve((asked.body as { request_id: string }).request_id)).body.status).toBe('applied');
    expect((await h.post(`${P}/policy/`, {}, alex)).body).toMatchObject({ policy: { approvers: 3 } });
    covered.add('approvals.policy');
  });
});
