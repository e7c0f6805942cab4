import type { Db } from '@latchkey/runtime';
import { type SmtpReceiver, startSmtpReceiver } from '@latchkey/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleAuth, registerDevice, send } from '../../testing/clients.ts';
import { CONSOLE_ORIGIN, createHubDb, type RunningHub, startHub, TEAM } from '../../testing/hub-fixture.ts';

let db: Db;
let hub: RunningHub;
let smtp: SmtpReceiver;
let admin: Record<string, string>;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  db = await createHubDb();
  hub = await startHub(db, { SMTP_URL: smtp.url, MAIL_FROM: 'Northwind Hub <hub@northwind.example>' });
  admin = await consoleAuth(hub);
  // Two recovery admins asked; only hana accepts from her app, so only she is active.
  for (const [email, key] of [
    ['hana@northwind.example', 'aGFuYS1rZXk='],
    ['ivo@northwind.example', 'aXZvLWtleQ=='],
  ] as const) {
    await registerDevice(hub, email, { publicKey: key });
    await send(hub, '/recovery/create/admin/request/', { team_slug: TEAM, email, teamuser_id: email }, admin);
  }
  const hana = await registerDevice(hub, 'hana@northwind.example', { publicKey: 'aGFuYS1rZXk=' });
  const { body } = await send<{ requests: { request_id: string }[] }>(hub, '/api/v1/client/recovery/admin/requests/', {}, hana);
  await send(hub, '/api/v1/client/recovery/admin/requests/accept/', { request_id: body.requests[0]?.request_id }, hana);
});
afterAll(async () => {
  await hub.app.close();
  await db.close();
  await smtp.close();
});

/** A member's app asks for recovery; returns the device's credential (which must never be mailed). */
async function memberAsks(email: string, target = hub) {
  const device = await registerDevice(target, email, { publicKey: 'bWVtYmVyLWtleQ==' });
  const res = await send<{ request_id: string; state: string }>(target, '/api/v1/client/recovery/requests/create/', {}, device);
  expect(res).toMatchObject({ status: 200, body: { state: 'pending' } });
  return { device, requestId: res.body.request_id };
}

/** Recipients of the mail received since `from`, after the expected ones arrived and a moment for any stray one. */
async function recipientsSince(from: number, expected: string[]) {
  for (const email of expected)
    await smtp.waitFor(email, smtp.mail.slice(0, from).filter((m) => m.to.includes(email)).length + 1);
  await new Promise((r) => setTimeout(r, 200));
  return smtp.mail.slice(from).flatMap((m) => m.to);
}

const setRecipients = (type: string, emails: string[] = []) =>
  send(
    hub,
    '/recovery/notification/recipient/type/update/',
    { team_slug: TEAM, recovery_notification_recipient_type: type, recovery_notification_recipient_emails: emails },
    admin,
  );

describe('recovery request notifications', () => {
  it("by default the team's active recovery admins are emailed who asked, when, and where to act, without any secret", async () => {
    const from = smtp.mail.length;
    const { device, requestId } = await memberAsks('ava@northwind.example');
    expect(await recipientsSince(from, ['hana@northwind.example'])).toEqual(['hana@northwind.example']);
    const [mail] = smtp.mail.slice(from);
    const raw = mail?.raw.replace(/=\r?\n/g, '') ?? '';
    const { body } = await send<{ results: { id: string; created_at: string }[] }>(
      hub,
      '/organization/recovery/admin/requests/fetch/',
      { team_slug: TEAM },
      admin,
    );
    const createdAt = body.results.find((r) => r.id === requestId)?.created_at as string;
    expect(raw).toContain('From: Northwind Hub <hub@northwind.example>');
    expect(raw).toContain('Subject: Account recovery requested by ava@northwind.example');
    expect(raw).toContain(`ava@northwind.example asked to recover their Latchkey account on ${createdAt}.`);
    expect(raw).toContain(`${CONSOLE_ORIGIN}/#/recovery`);
    // Neither the device's credential nor its key nor the team's shared secret, nor the request's id.
    const deviceSecret = device.authorization?.split('.').at(-1) as string;
    for (const secret of [deviceSecret, 'bWVtYmVyLWtleQ==', requestId]) expect(raw).not.toContain(secret);
  });

  it('asking again while the request is open sends nothing new', async () => {
    const from = smtp.mail.length;
    const ava = await registerDevice(hub, 'ava@northwind.example');
    await send(hub, '/api/v1/client/recovery/requests/create/', {}, ava);
    await memberAsks('bo@northwind.example');
    // Bo's mail arrives; Ava's second ask produced none.
    expect(await recipientsSince(from, ['hana@northwind.example'])).toEqual(['hana@northwind.example']);
    expect(smtp.mail.at(-1)?.raw).toContain('bo@northwind.example');
  });

  it('an explicit list: exactly those addresses', async () => {
    expect((await setRecipients('custom', ['security@northwind.example', 'cso@northwind.example'])).status).toBe(200);
    const from = smtp.mail.length;
    await memberAsks('cai@northwind.example');
    const to = await recipientsSince(from, ['security@northwind.example', 'cso@northwind.example']);
    expect(to.sort()).toEqual(['cso@northwind.example', 'security@northwind.example']);
    for (const mail of smtp.mail.slice(from)) expect(mail.raw).toContain('cai@northwind.example');
  });

  it('super admins: those who have signed in to this Hub', async () => {
    expect((await setRecipients('super_admins')).status).toBe(200);
    await consoleAuth(hub, ['recovery_agent'], 'rory@northwind.example');
    const from = smtp.mail.length;
    await memberAsks('dee@northwind.example');
    expect(await recipientsSince(from, ['alex@northwind.example'])).toEqual(['alex@northwind.example']);
  });

  it('a mail server that refuses fails no request: the request is kept and the mail arrives after a retry', async () => {
    await setRecipients('recovery_admins');
    smtp.refuseNext(2);
    const refusedBefore = smtp.refused;
    const from = smtp.mail.length;
    const { requestId } = await memberAsks('eve@northwind.example');
    const row = await db.query('select state from recovery_requests where id = $1', [requestId]);
    expect(row).toEqual([{ state: 'pending' }]);
    // Refused twice (retries after 1–2 s, then 2–4 s), then delivered once.
    await smtp.waitFor(
      'hana@northwind.example',
      smtp.mail.slice(0, from).filter((m) => m.to.includes('hana@northwind.example')).length + 1,
      20_000,
    );
    expect(smtp.refused - refusedBefore).toBe(2);
    expect(smtp.mail.slice(from).map((m) => m.to)).toEqual([['hana@northwind.example']]);
    expect(smtp.mail.at(-1)?.raw).toContain('eve@northwind.example');
  });

  it('a member asking twice at once opens one request and queues one mail per recipient', async () => {
    const from = smtp.mail.length;
    const device = await registerDevice(hub, 'finn@northwind.example', { publicKey: 'bWVtYmVyLWtleQ==' });
    const [a, b] = await Promise.all([
      send<{ request_id: string }>(hub, '/api/v1/client/recovery/requests/create/', {}, device),
      send<{ request_id: string }>(hub, '/api/v1/client/recovery/requests/create/', {}, device),
    ]);
    expect(a.body.request_id).toBe(b.body.request_id);
    expect(await recipientsSince(from, ['hana@northwind.example'])).toEqual(['hana@northwind.example']);
  });
});
