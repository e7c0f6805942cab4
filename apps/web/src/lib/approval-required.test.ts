import { ApprovalRequired as ApprovalRequiredReply } from '@latchkey/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const SESSION_KEY = 'latchkey.session';
const REQUEST_ID = '5b0e6a52-3f0c-4a43-9c84-0d7f2d0b1e11';
const REQUESTED_AT = '2026-11-29T10:42:00.000Z';

/** The server's answer to a gated call under an approval policy (its contract's shape), or a plain success. */
function server(held: boolean) {
  const seen: string[] = [];
  const fetch = async (url: string) => {
    seen.push(url);
    const body = held
      ? ApprovalRequiredReply.parse({
          code: 'approval_required',
          request_id: REQUEST_ID,
          description: 'This change waits for approval.',
          message_key: 'errors.approval_required',
          message_values: { requested_at: REQUESTED_AT },
        })
      : { code: 'updated' };
    return new Response(JSON.stringify(body), { status: held ? 202 : 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, seen };
}

/** A fresh copy of the client's modules, so each test starts with no held change. */
async function client() {
  vi.resetModules();
  return {
    api: await import('./api.ts'),
    errors: await import('./api-error.ts'),
    notices: await import('./approval-notices.ts'),
  };
}

beforeEach(() => {
  localStorage.setItem(
    SESSION_KEY,
    JSON.stringify({
      email: 'ana@fourthcoffee.example',
      team_slug: 'fourthcoffee',
      token: { access: 'a', refresh_token: 'r', expires_at: Date.now() + 300_000, refresh_expires_at: Date.now() + 3_600_000 },
      hub: null,
    }),
  );
  location.hash = '#/policies';
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('a change held for approval (202 approval_required)', () => {
  it('is not a success: the call fails with the request, and the screen it was made on remembers it', async () => {
    const { api, errors, notices } = await client();
    vi.stubGlobal('fetch', server(true).fetch);
    const outcome = await api.call('policyTeamUpdate', { policy_json: { 'mp.min_length': { policy: 10 } } }).then(
      () => 'resolved',
      (error: unknown) => error,
    );
    expect(outcome).toBeInstanceOf(errors.ApprovalRequired);
    const held = outcome as InstanceType<typeof errors.ApprovalRequired>;
    expect(held.requestId).toBe(REQUEST_ID);
    expect(held.requestedAt).toBe(REQUESTED_AT);
    // Every screen that shows a failure's message says it waits, with the time in the console's format.
    expect(errors.errorMessage(held)).toBe('approvals.notice.waiting');
    expect(errors.errorValues(held)).toEqual({ time: expect.stringMatching(/\d{2}/) });
    expect(notices.heldChanges()).toEqual([{ requestId: REQUEST_ID, requestedAt: REQUESTED_AT, path: '/policies' }]);
  });

  it('asking again with the same payload answers the same request: one notice, not two', async () => {
    const { api, notices } = await client();
    vi.stubGlobal('fetch', server(true).fetch);
    for (let i = 0; i < 2; i++)
      await api
        .call('adminRemove', { action: 'remove_admin', email: 'ben@fourthcoffee.example', scopes: ['super_admin'] })
        .catch(() => undefined);
    expect(notices.heldChanges()).toHaveLength(1);
    notices.forgetHeldChange(REQUEST_ID);
    expect(notices.heldChanges()).toEqual([]);
  });

  it('a call that is not held resolves as always and leaves no notice', async () => {
    const { api, notices } = await client();
    vi.stubGlobal('fetch', server(false).fetch);
    await expect(api.call('policyTeamUpdate', { policy_json: {} })).resolves.toEqual({ code: 'updated' });
    expect(notices.heldChanges()).toEqual([]);
  });
});
