// Four-eyes approval over HTTP, on PGlite (and PostgreSQL with TEST_DB=postgres): the policy, the
// 202 answer, who may decide, that the approved payload runs once and exactly, expiry, withdrawal,
// lock-out and the operator's break-glass, and every action class with the policy on and off.
import { type ApprovalPolicy, type ApprovalRequest, DEFAULT_APPROVAL_POLICY, POLICY_ACTION_CODES } from '@latchkey/contracts';
import { createJobs } from '@latchkey/runtime';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS, SECURITY_DEMO_ADMINS, seedSecurityDemo } from '../demo/index.ts';
import { createApprovalsOperator } from './index.ts';

const P = '/api/v1/team/approvals';
let h: Harness;
const tokens = new Map<string, string>();
const token = (who: string) => tokens.get(who) as string;

beforeAll(async () => {
  h = await startHarness();
  await seedSecurityDemo(h.db);
  // A third super admin (set-up): Sam administers Northwind as a super admin too.
  await h.db.query(
    `update team_admins set scopes = '{super_admin}' where user_id = (select id from users where email = $1)
       and team_id = (select id from teams where slug = 'northwind')`,
    [DEMO_ADMINS.twoTeams],
  );
  tokens.set('alex', (await h.signIn(DEMO_ADMINS.superAdmin)).token.access);
  // The same person in a second session.
  tokens.set('alex2', (await h.signIn(DEMO_ADMINS.superAdmin)).token.access);
  tokens.set('tess', (await h.signIn(SECURITY_DEMO_ADMINS.tess)).token.access);
  tokens.set('sam', (await h.signIn(DEMO_ADMINS.twoTeams)).token.access);
  tokens.set('adam', (await h.signIn(DEMO_ADMINS.admin)).token.access);
  tokens.set('rory', (await h.signIn(DEMO_ADMINS.recoveryAgent)).token.access);
  // Sam is also the super admin of another team (a family).
  tokens.set('family', (await h.signIn(DEMO_ADMINS.twoTeams, 'sam-family')).token.access);
}, 120_000);
afterAll(() => h?.close());

const policy = (change: Partial<ApprovalPolicy>): ApprovalPolicy => ({ ...DEFAULT_APPROVAL_POLICY, ...change });

/** Sets the policy directly (the team's policy store, as a super admin would with approvals.policy not listed). */
async function setPolicy(change: Partial<ApprovalPolicy>) {
  await h.db.query("delete from approval_policies where team_id = (select id from teams where slug = 'northwind')");
  const res = await h.post(`${P}/policy/update/`, { policy: policy(change) }, token('alex'));
  expect(res.status, res.text).toBe(200);
}

const decide = (who: string, id: string, decision: 'approve' | 'reject', comment = '') =>
  h.post<ApprovalRequest>(`${P}/decide/`, { id, decision, comment }, token(who));
const request = async (id: string, who = 'alex') => (await h.post<ApprovalRequest>(`${P}/request/`, { id }, token(who))).body;
const admins = async () =>
  ((await h.post('/api/v1/team/admin/members/', {}, token('alex'))).body as { admins: { email: string }[] }).admins.map(
    (a) => a.email,
  );
const eventsOf = async (requestId: string) =>
  (
    await h.db.query<{ event: { actor: string; activity: string; detail: Record<string, unknown> } }>(
      "select event from event_outbox where event->'detail'->>'request_id' = $1 order by seq",
      [requestId],
    )
  ).map((r) => `${r.event.activity} ${r.event.actor}`);

function requestIdOf(res: { status: number; body: unknown; text: string }): string {
  expect(res.status, res.text).toBe(202);
  expect(res.body).toMatchObject({ code: 'approval_required', message_key: 'errors.approval_required' });
  return (res.body as { request_id: string }).request_id;
}

describe('the policy', () => {
  test('off by default; a super admin sets it; an admin cannot; the eligible approvers are counted by person', async () => {
    await h.db.query('delete from approval_policies');
    const initial = await h.post(`${P}/policy/`, {}, token('alex'));
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({ policy: { enabled: false, approvers: 2, expiry_hours: 24 }, locked_out: false });
    // Alex, Tess, Sam and Dana: four people, however many sessions Alex has.
    expect(initial.body).toMatchObject({ eligible_approvers: 4 });
    expect((initial.body as { actions: string[] }).actions).toEqual(POLICY_ACTION_CODES);
    expect((await h.post(`${P}/policy/`, {}, token('adam'))).status).toBe(403);
    expect((await h.post(`${P}/policy/update/`, { policy: policy({ enabled: true }) }, token('adam'))).status).toBe(403);
    const bad = await h.post(`${P}/policy/update/`, { policy: policy({ approvers: 1 }) }, token('alex'));
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('errors.approval_policy_approvers');
    await setPolicy({ enabled: true, approvers: 5 });
    const locked = await h.post(`${P}/policy/`, {}, token('alex'));
    expect(locked.body).toMatchObject({ policy: { enabled: true, approvers: 5 }, eligible_approvers: 4, locked_out: true });
  });

  test('changing the policy waits for approval while it lists approvals.policy', async () => {
    await setPolicy({ enabled: true, actions: ['approvals.policy'] });
    const off = policy({ enabled: false, actions: ['approvals.policy'] });
    const id = requestIdOf(await h.post(`${P}/policy/update/`, { policy: off }, token('alex')));
    expect((await h.post(`${P}/policy/`, {}, token('alex'))).body).toMatchObject({ policy: { enabled: true } });
    expect((await request(id)).changes).toEqual([{ key: 'enabled', kind: 'changed', before: true, after: false }]);
    const done = await decide('tess', id, 'approve', 'agreed on the call');
    expect(done.body.status).toBe('applied');
    expect((await h.post(`${P}/policy/`, {}, token('alex'))).body).toMatchObject({ policy: { enabled: false } });
  });
});

describe('a gated call', () => {
  test('answers 202 with the request and changes nothing; the same ask is the same request, another payload another', async () => {
    await setPolicy({ enabled: true });
    const ask = { email: 'gated@northwind.example', scopes: ['admin'] };
    const first = requestIdOf(await h.post('/organization/admin/user/add/', ask, token('alex')));
    expect(await admins()).not.toContain('gated@northwind.example');
    // Asked again from another session: the same request.
    expect(requestIdOf(await h.post('/organization/admin/user/add/', ask, token('alex2')))).toBe(first);
    const other = requestIdOf(
      await h.post('/organization/admin/user/add/', { ...ask, scopes: ['admin', 'integrator'] }, token('alex')),
    );
    expect(other).not.toBe(first);
    const shown = await request(first, 'tess');
    expect(shown).toMatchObject({
      action: 'admins.add',
      status: 'pending',
      requester: { email: DEMO_ADMINS.superAdmin, name: 'Alex Morgan' },
      payload: { email: 'gated@northwind.example', scopes: ['admin'] },
      approvers_required: 2,
      can_decide: true,
      can_withdraw: false,
      eligible_approvers: 3,
      locked_out: false,
    });
    expect(shown.payload_hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await request(other)).payload_hash).not.toBe(shown.payload_hash);
  });

  test('the requester cannot approve in any session; an admin without the scope cannot; another super admin approves once', async () => {
    await setPolicy({ enabled: true });
    const id = requestIdOf(
      await h.post('/organization/admin/user/add/', { email: 'second@northwind.example', scopes: ['admin'] }, token('alex')),
    );
    for (const who of ['alex', 'alex2']) {
      const own = await decide(who, id, 'approve');
      expect(own.status).toBe(403);
      expect(own.body).toMatchObject({ code: 'approval_own_request', message_key: 'errors.approval_own_request' });
    }
    const adam = await decide('adam', id, 'approve');
    expect(adam.status).toBe(403);
    expect(adam.body).toMatchObject({ code: 'approval_scope_missing' });
    // Nor does an admin see what a super admin asked.
    expect((await h.post(`${P}/request/`, { id }, token('adam'))).status).toBe(404);
    const adamSees = (await h.post<{ results: ApprovalRequest[] }>(`${P}/`, { view: 'all' }, token('adam'))).body;
    expect(adamSees.results.map((r) => r.id)).not.toContain(id);
    // A recovery agent does not even see the approvals.
    expect((await decide('rory', id, 'approve')).status).toBe(403);
    expect((await h.post(`${P}/count/`, {}, token('tess'))).body).toMatchObject({ pending_for_me: expect.any(Number) });
    const pendingForTess = (await h.post<{ results: ApprovalRequest[] }>(`${P}/`, { view: 'pending_for_me' }, token('tess')))
      .body;
    expect(pendingForTess.results.map((r) => r.id)).toContain(id);
    const mine = (await h.post<{ results: ApprovalRequest[] }>(`${P}/`, { view: 'pending_for_me' }, token('alex'))).body;
    expect(mine.results.map((r) => r.id)).not.toContain(id);

    const approved = await decide('tess', id, 'approve', 'Second is our new helpdesk lead');
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'applied',
      approvals: [{ email: SECURITY_DEMO_ADMINS.tess, decision: 'approved', comment: 'Second is our new helpdesk lead' }],
    });
    expect(await admins()).toContain('second@northwind.example');
    // Applied once: a second approval finds it closed, and nothing runs again.
    const again = await decide('sam', id, 'approve');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'approval_closed' });
    expect(await eventsOf(id)).toEqual([
      `approval.requested ${DEMO_ADMINS.superAdmin}`,
      `approval.approved ${SECURITY_DEMO_ADMINS.tess}`,
      `approval.applied ${DEMO_ADMINS.superAdmin}`,
    ]);
    // The admin was added as the requester: the admins room's own event names Alex.
    const [added] = await h.db.query<{ n: number }>(
      "select count(*)::int as n from security_events where kind = 'admin_added' and email = 'second@northwind.example'",
    );
    expect(added?.n).toBe(1);
  });

  test("another team's super admin neither sees nor decides nor withdraws the request", async () => {
    await setPolicy({ enabled: true });
    const id = requestIdOf(
      await h.post('/organization/admin/user/add/', { email: 'other-team@northwind.example', scopes: ['admin'] }, token('alex')),
    );
    for (const [path, body] of [
      [`${P}/request/`, { id }],
      [`${P}/decide/`, { id, decision: 'approve' }],
      [`${P}/withdraw/`, { id }],
    ] as const) {
      const res = await h.post(path, body, token('family'));
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ code: 'approval_not_found' });
    }
    const theirs = (await h.post<{ results: ApprovalRequest[] }>(`${P}/`, { view: 'all' }, token('family'))).body;
    expect(theirs.results.map((r) => r.id)).not.toContain(id);
    expect((await request(id)).status).toBe('pending');
  });

  test('the approvers asked are mailed through the queue', async () => {
    await setPolicy({ enabled: true });
    requestIdOf(
      await h.post('/organization/admin/auth/reset/', { email: SECURITY_DEMO_ADMINS.tess, reset_auth: true }, token('alex')),
    );
    await h.mailSent();
    const asked = h.mail.filter((m) => m.raw.includes('Approval needed in'));
    expect(asked.some((m) => m.to.includes(SECURITY_DEMO_ADMINS.tess))).toBe(true);
    expect(asked.some((m) => m.to.includes(DEMO_ADMINS.twoTeams))).toBe(true);
    expect(asked.some((m) => m.to.includes(DEMO_ADMINS.superAdmin))).toBe(false);
  });

  test('rejected, withdrawn and expired requests never run', async () => {
    await setPolicy({ enabled: true });
    const add = (email: string) => h.post('/organization/admin/user/add/', { email, scopes: ['admin'] }, token('alex'));
    const rejected = requestIdOf(await add('rejected@northwind.example'));
    expect((await decide('tess', rejected, 'reject', 'not needed')).body).toMatchObject({ status: 'rejected' });
    expect((await decide('sam', rejected, 'approve')).status).toBe(409);

    const withdrawn = requestIdOf(await add('withdrawn@northwind.example'));
    expect((await h.post(`${P}/withdraw/`, { id: withdrawn }, token('tess'))).status).toBe(403);
    expect(
      (await h.post<ApprovalRequest>(`${P}/withdraw/`, { id: withdrawn, comment: 'typo' }, token('alex'))).body,
    ).toMatchObject({
      status: 'withdrawn',
    });
    expect((await decide('tess', withdrawn, 'approve')).status).toBe(409);

    const expired = requestIdOf(await add('expired@northwind.example'));
    await h.db.query("update approval_requests set expires_at = now() - interval '1 second' where id = $1", [expired]);
    const late = await decide('tess', expired, 'approve');
    expect(late.status).toBe(409);
    expect((await request(expired)).status).toBe('expired');
    expect(await eventsOf(expired)).toContain('approval.expired system');
    expect(await admins()).not.toEqual(expect.arrayContaining(['rejected@northwind.example']));
    const all = await admins();
    for (const email of ['rejected@northwind.example', 'withdrawn@northwind.example', 'expired@northwind.example'])
      expect(all).not.toContain(email);
    // Asking again after expiry makes a new request.
    expect(requestIdOf(await add('expired@northwind.example'))).not.toBe(expired);
  });

  test('two approvals at once apply the action once', async () => {
    await setPolicy({ enabled: true });
    const id = requestIdOf(
      await h.post('/organization/admin/user/add/', { email: 'race@northwind.example', scopes: ['admin'] }, token('alex')),
    );
    const both = await Promise.all([decide('tess', id, 'approve'), decide('sam', id, 'approve')]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await eventsOf(id)).filter((e) => e.startsWith('approval.applied'))).toHaveLength(1);
    const [added] = await h.db.query<{ n: number }>(
      "select count(*)::int as n from security_events where kind = 'admin_added' and email = 'race@northwind.example'",
    );
    expect(added?.n).toBe(1);
  });

  test('an approved action the state refused meanwhile closes as failed, changing nothing', async () => {
    await setPolicy({ enabled: true });
    const id = requestIdOf(
      await h.post(
        '/organization/admin/user/remove/',
        { action: 'remove_admin', email: 'nobody@northwind.example' },
        token('alex'),
      ),
    );
    const done = await decide('tess', id, 'approve');
    expect(done.body).toMatchObject({
      status: 'failed',
      closed_reason: 'nobody@northwind.example is not an administrator of this team.',
    });
    expect(await eventsOf(id)).toContain(`approval.apply_failed ${DEMO_ADMINS.superAdmin}`);
  });
});

describe('lock-out and break-glass', () => {
  test('removing the second-to-last super admin waits for approval whatever the policy lists', async () => {
    await setPolicy({ enabled: true, actions: [] });
    // Sam and Dana made plain admins: Alex and Tess are the last two super admins.
    await h.db.query(
      `update team_admins set scopes = '{admin}' where user_id in (select id from users where email = any($1))
         and team_id = (select id from teams where slug = 'northwind')`,
      [[DEMO_ADMINS.twoTeams, SECURITY_DEMO_ADMINS.dana]],
    );
    try {
      const id = requestIdOf(
        await h.post(
          '/organization/admin/user/remove/',
          { action: 'remove_admin', email: SECURITY_DEMO_ADMINS.tess },
          token('alex'),
        ),
      );
      expect((await request(id)).action).toBe('admins.remove');
      expect(await admins()).toContain(SECURITY_DEMO_ADMINS.tess);
      await h.post(`${P}/withdraw/`, { id }, token('alex'));
    } finally {
      await h.db.query(
        `update team_admins set scopes = '{super_admin}' where user_id in (select id from users where email = any($1))
           and team_id = (select id from teams where slug = 'northwind')`,
        [[DEMO_ADMINS.twoTeams, SECURITY_DEMO_ADMINS.dana]],
      );
    }
  });

  test('fewer eligible approvers than M is said in each request; the operator approves with a reason, or clears', async () => {
    await setPolicy({ enabled: true, approvers: 5 });
    const id = requestIdOf(
      await h.post('/organization/admin/user/add/', { email: 'glass@northwind.example', scopes: ['admin'] }, token('alex')),
    );
    expect(await request(id)).toMatchObject({ locked_out: true, eligible_approvers: 3, approvers_required: 5 });
    const cleared = requestIdOf(
      await h.post('/organization/admin/user/add/', { email: 'cleared@northwind.example', scopes: ['admin'] }, token('alex')),
    );
    // The operator's command line queues the apply; the server's workers run it.
    const jobs = createJobs(h.db, { log: silent, noWorkers: true });
    const operator = createApprovalsOperator(h.db, jobs);
    await jobs.start();
    try {
      const [team] = await h.db.query<{ id: string }>("select id from teams where slug = 'northwind'");
      const teamId = team?.id as string;
      expect((await operator.pending(teamId)).map((r) => r.id)).toEqual(expect.arrayContaining([id, cleared]));
      await operator.approve(teamId, id, 'Alex is alone on call tonight; ticket OPS-12');
      await operator.clear(teamId, cleared, 'asked by mistake');
      await expect(operator.clear(teamId, cleared, 'twice')).rejects.toThrow(/rejected/);
    } finally {
      await jobs.stop();
    }
    const deadline = Date.now() + 10_000;
    while ((await request(id)).status !== 'applied' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await request(id)).toMatchObject({
      status: 'applied',
      approvals: [{ email: 'operator', operator: true, comment: 'Alex is alone on call tonight; ticket OPS-12' }],
    });
    expect(await admins()).toContain('glass@northwind.example');
    expect(await eventsOf(id)).toEqual([
      `approval.requested ${DEMO_ADMINS.superAdmin}`,
      'approval.operator_approved operator',
      `approval.applied ${DEMO_ADMINS.superAdmin}`,
    ]);
    expect(await request(cleared)).toMatchObject({
      status: 'rejected',
      closed_reason: 'Cleared by the operator: asked by mistake',
    });
    expect(await eventsOf(cleared)).toContain('approval.operator_cleared operator');
  });
});

const silent = {
  warn: () => {},
  error: () => {},
  info: () => {},
  debug: () => {},
  trace: () => {},
  fatal: () => {},
  child: () => silent,
} as unknown as FastifyBaseLogger;
