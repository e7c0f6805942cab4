// Alert e-mail goes to the team's administrators only, over HTTP: the real server and the real
// Hub, the Hub asking the server over the signed channel when a rule is saved and before each
// delivery. A non-admin refused, an admin accepted, unsigned checks refused, the server
// unreachable (503 at save; the delivery waits and retries), and an admin removed after saving
// no longer mailed.

import type { KeyObject } from 'node:crypto';
import { type HubTokens, hubAdminsCheckEndpoint } from '@latchkey/contracts';
import { signCall } from '@latchkey/runtime';
import { type SmtpReceiver, startSmtpReceiver } from '@latchkey/runtime/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

const ALEX = DEMO_ADMINS.superAdmin;
const ADAM = DEMO_ADMINS.admin;
const STRANGER = 'nobody.here@northwind.example';
let h: Harness;
let hubMail: SmtpReceiver;
let serverToken = '';
let hubToken = '';

beforeAll(async () => {
  hubMail = await startSmtpReceiver();
  h = await startHarness({
    hub: true,
    hubEnv: {
      SMTP_URL: hubMail.url,
      ALERT_PUMP_INTERVAL_MS: '100',
      ALERT_RETRY_DELAY_SECONDS: '1',
      ALERT_RETRY_LIMIT: '5',
    },
  });
  const signedIn = await h.signIn(ALEX);
  serverToken = signedIn.token.access;
  const res = await fetch(`${h.hub?.url}/auth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${signedIn.aux_code?.access}` },
    body: JSON.stringify({ team_slug: 'northwind', device: {} }),
  });
  expect(res.status).toBe(200);
  hubToken = ((await res.json()) as HubTokens).access;
}, 120_000);
afterAll(async () => {
  await h?.close();
  await hubMail?.close();
});

type Reply = {
  code?: string;
  message_key?: string;
  message_values?: Record<string, string>;
  issues?: { path: string; message: string }[];
  rule: { id: string; destinations: { kind: string; recipients?: string[] }[] };
};
async function hubPost<T = Reply>(path: string, body: Record<string, unknown>) {
  const res = await fetch(`${h.hub?.url}/audit/alerts${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${hubToken}` },
    body: JSON.stringify({ team_slug: 'northwind', ...body }),
  });
  return { status: res.status, body: (await res.json()) as T };
}
let n = 0;
const ruleTo = (recipients: string[]) => ({
  name: `Mail rule ${++n}`,
  filters: { activities: [`test.never_${n}`] },
  condition: { kind: 'every' },
  destinations: [{ kind: 'email', recipients }],
});
const setServerUrl = (url: string | null) => h.hub?.db.query('update registrations set server_url = $1', [url]);
type Delivery = { status: string; attempts: number; last_error: string | null };
const deliveries = async (id: string) =>
  (await hubPost<{ firings: { deliveries: Delivery[] }[] }>('/rules/firings/', { id })).body.firings.flatMap((f) => f.deliveries);
async function until(check: () => Promise<boolean>, what: string, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const mailedTo = (email: string) => hubMail.mail.filter((m) => m.to.includes(email)).length;

describe('the server: which addresses are the team administrators', () => {
  const PATH = hubAdminsCheckEndpoint.path;
  const ask = (token: string | undefined, json: string) =>
    fetch(h.url + PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: json,
    });
  const body = { team_slug: 'northwind', emails: [ALEX.toUpperCase(), STRANGER, ADAM] };

  test("answers the Hub's signed call with the administrators among the addresses, lowercased", async () => {
    const signed = signCall(h.hub?.key as KeyObject, 'demo-hub', PATH, 'northwind', body);
    const res = await ask(signed.token, signed.json);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { admins: string[] }).admins.sort()).toEqual([ADAM, ALEX].sort());
  });

  test('refuses an unsigned call, one signed by another key and one for another team', async () => {
    expect((await ask(undefined, JSON.stringify(body))).status).toBe(401);
    const mine = signCall(h.serverKey, 'demo-hub', PATH, 'northwind', body);
    expect((await ask(mine.token, mine.json)).status).toBe(401);
    const other = { ...body, team_slug: 'contoso' };
    const elsewhere = signCall(h.hub?.key as KeyObject, 'demo-hub', PATH, 'contoso', other);
    expect((await ask(elsewhere.token, elsewhere.json)).status).toBe(401);
  });

  test('an invited person who has not accepted is not an administrator yet', async () => {
    const invited = 'invited.later@northwind.example';
    const [team] = await h.db.query<{ id: string }>("select id from teams where slug = 'northwind'");
    await h.db.query("insert into users (email, name) values ($1, 'Invited Later')", [invited]);
    await h.db.query(
      `insert into admin_invitations (team_id, user_id, scopes, token_hash, invited_by, expires_at)
       select $1, id, '{super_admin}', 'hash-of-a-test-invitation', id, now() + interval '1 day' from users where email = $2`,
      [team?.id, invited],
    );
    const signed = signCall(h.hub?.key as KeyObject, 'demo-hub', PATH, 'northwind', {
      team_slug: 'northwind',
      emails: [invited],
    });
    expect(await (await ask(signed.token, signed.json)).json()).toEqual({ admins: [] });
  });
});

describe('the Hub: alert e-mail to administrators only', () => {
  test('a rule mailing someone who is not an administrator is refused, naming them', async () => {
    const res = await hubPost('/rules/create/', ruleTo([ALEX, STRANGER]));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'alert_recipient_not_admin',
      message_key: 'errors.alert_recipient_not_admin',
      message_values: { emails: STRANGER },
    });
    expect(res.body.issues).toEqual([{ path: 'destinations.0.recipients', message: 'errors.alert_recipient_not_admin' }]);
    // Nor on an update, nor when switching a template on.
    const ok = await hubPost('/rules/create/', ruleTo([ALEX]));
    const { name, filters, condition } = ruleTo([]);
    const update = await hubPost('/rules/update/', {
      id: ok.body.rule.id,
      name,
      filters,
      condition,
      destinations: [{ kind: 'email', recipients: [STRANGER] }],
    });
    expect(update.body.code).toBe('alert_recipient_not_admin');
    const template = await hubPost('/templates/enable/', {
      template: 'failed_sign_ins',
      name: 'Failed sign-ins to a stranger',
      destinations: [{ kind: 'email', recipients: [STRANGER] }],
    });
    expect(template.body.code).toBe('alert_recipient_not_admin');
  });

  test('administrators are accepted (any case), and a template switched on mails its administrator', async () => {
    const res = await hubPost('/rules/create/', ruleTo([ALEX, ADAM.toUpperCase()]));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.rule.destinations).toEqual([expect.objectContaining({ kind: 'email', recipients: [ALEX, ADAM] })]);
    const template = await hubPost('/templates/enable/', { template: 'admin_added', name: 'Administrator added' });
    expect(template.status, JSON.stringify(template.body)).toBe(200);
    expect(template.body.rule.destinations).toEqual([expect.objectContaining({ kind: 'email', recipients: [ALEX] })]);
  });

  test('the server unreachable: nothing is saved (503), and a delivery waits and retries instead of mailing unchecked', async () => {
    const saved = await hubPost('/rules/create/', ruleTo([ALEX]));
    expect(saved.status).toBe(200);
    await setServerUrl('http://127.0.0.1:1');
    try {
      const refused = await hubPost('/rules/create/', ruleTo([ALEX]));
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({
        code: 'alert_recipients_unverifiable',
        message_key: 'errors.alert_recipients_unverifiable',
      });
      const before = mailedTo(ALEX);
      expect((await hubPost('/rules/test/', { id: saved.body.rule.id })).status).toBe(200);
      await until(async () => (await deliveries(saved.body.rule.id))[0]?.attempts === 1, 'a first attempt');
      const [waiting] = await deliveries(saved.body.rule.id);
      expect(waiting).toMatchObject({ status: 'pending', last_error: expect.stringContaining('licence server') });
      expect(mailedTo(ALEX)).toBe(before);
    } finally {
      await setServerUrl(h.url);
    }
    await until(async () => (await deliveries(saved.body.rule.id))[0]?.status === 'delivered', 'delivered after a retry');
    await hubMail.waitFor(ALEX, 1);
  });

  test('a registration without a server address takes no e-mail destination (no list to check)', async () => {
    await setServerUrl(null);
    try {
      const res = await hubPost('/rules/create/', ruleTo([ALEX]));
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'alert_email_needs_server', message_key: 'errors.alert_email_needs_server' });
    } finally {
      await setServerUrl(h.url);
    }
  });

  test('an administrator removed after the rule was saved no longer receives it', async () => {
    const saved = await hubPost('/rules/create/', ruleTo([ALEX, ADAM]));
    expect(saved.status).toBe(200);
    const adamOnly = await hubPost('/rules/create/', ruleTo([ADAM]));
    expect(adamOnly.status).toBe(200);
    const removed = await h.post('/organization/admin/user/remove/', { action: 'remove_admin', email: ADAM }, serverToken);
    expect(removed.status, removed.text).toBe(200);
    const alexBefore = mailedTo(ALEX);
    const adamBefore = mailedTo(ADAM);
    expect((await hubPost('/rules/test/', { id: saved.body.rule.id })).status).toBe(200);
    await until(async () => (await deliveries(saved.body.rule.id))[0]?.status === 'delivered', 'delivered');
    await hubMail.waitFor(ALEX, alexBefore + 1);
    const [delivery] = await deliveries(saved.body.rule.id);
    expect(delivery?.last_error).toBe(`Not sent to ${ADAM}: no longer an administrator of the team.`);
    // Their only recipient gone: nothing is sent, and the delivery fails at once with the reason.
    expect((await hubPost('/rules/test/', { id: adamOnly.body.rule.id })).status).toBe(200);
    await until(async () => (await deliveries(adamOnly.body.rule.id))[0]?.status === 'failed', 'failed');
    expect((await deliveries(adamOnly.body.rule.id))[0]).toMatchObject({
      attempts: 1,
      last_error: expect.stringContaining(ADAM),
    });
    expect(mailedTo(ADAM)).toBe(adamBefore);
    // And the removed admin can no longer be chosen.
    expect((await hubPost('/rules/create/', ruleTo([ADAM]))).body.code).toBe('alert_recipient_not_admin');
  });
});
