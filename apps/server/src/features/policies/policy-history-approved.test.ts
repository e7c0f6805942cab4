import { DEFAULT_APPROVAL_POLICY } from '@latchkey/contracts';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { APPROVALS_DEMO, seedSecurityDemo } from '../demo/index.ts';

// Fourth Coffee (the demo's four-eyes team): Ana asks, Ben approves.
let h: Harness;
let ana = '';
let ben = '';
const { team } = APPROVALS_DEMO;

beforeAll(async () => {
  h = await startHarness();
  await seedSecurityDemo(h.db);
  ana = (await h.signIn(APPROVALS_DEMO.ana.email, team.slug)).token.access;
  ben = (await h.signIn(APPROVALS_DEMO.ben.email, team.slug)).token.access;
}, 120_000);
afterAll(() => h?.close());

type History = { results: { actor_email: string; approved_by: string[]; changed_keys: string[] }[] };
const latest = async () => (await h.post<History>('/api/v1/policy/team/history/', { page: 1 }, ana)).body.results[0];
const minLength = async () =>
  (await h.post<{ policy_json: Record<string, { policy: unknown }> }>('/api/v1/policy/team/', {}, ana)).body.policy_json[
    'mp.min_length'
  ]?.policy as number;

test('a relaxed policy approved by a second super admin: the history names who asked and who approved', async () => {
  const on = await h.post(
    '/api/v1/team/approvals/policy/update/',
    { policy: { ...DEFAULT_APPROVAL_POLICY, enabled: true } },
    ana,
  );
  expect(on.status, on.text).toBe(200);

  const asked = await h.post<{ code: string; request_id: string }>(
    '/api/v1/policy/team/update/',
    { policy_json: { 'mp.min_length': { policy: 10 } } },
    ana,
  );
  expect(asked.status, asked.text).toBe(202);
  expect(asked.body.code).toBe('approval_required');
  expect(await minLength()).toBe(14);

  const approved = await h.post<{ status: string }>(
    '/api/v1/team/approvals/decide/',
    { id: asked.body.request_id, decision: 'approve', comment: 'Fine for the pilot group' },
    ben,
  );
  expect(approved.status, approved.text).toBe(200);
  expect(approved.body.status).toBe('applied');
  expect(await minLength()).toBe(10);
  expect(await latest()).toMatchObject({
    actor_email: APPROVALS_DEMO.ana.email,
    approved_by: [APPROVALS_DEMO.ben.name],
    changed_keys: ['mp.min_length'],
  });

  // A change that relaxes nothing runs at once, and nobody approved it.
  const tighter = await h.post('/api/v1/policy/team/update/', { policy_json: { 'mp.min_length': { policy: 16 } } }, ana);
  expect(tighter.status, tighter.text).toBe(200);
  expect(await latest()).toMatchObject({ actor_email: APPROVALS_DEMO.ana.email, approved_by: [] });
});
