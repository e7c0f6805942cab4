import { randomUUID } from 'node:crypto';
import { type AlertRule, AUX_SERVICES, type HubTokens, type OrganizationType } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { type SmtpReceiver, startSmtpReceiver } from '@latchkey/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleAuth, send } from '../../testing/clients.ts';
import { CREDENTIAL, createHubDb, postSigned, type RunningHub, signGrant, startHub, TEAM } from '../../testing/hub-fixture.ts';
import { pollUntil } from '../../testing/siem-hub.ts';
import { registrationsRepository } from '../registrations/index.ts';

/**
 * Who may manage alert rules, enforced on the Hub: super admins of an enterprise, standard or
 * starter organisation, with the event-logs service on, for their own team only. And the built-in
 * templates, switched on in one click.
 */
let db: Db;
let hub: RunningHub;
let smtp: SmtpReceiver;
let admin: Record<string, string>;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  db = await createHubDb();
  hub = await startHub(db, {
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Northwind Hub <hub@northwind.example>',
    ALERT_PUMP_INTERVAL_MS: '100',
  });
  admin = await consoleAuth(hub);
});
afterAll(async () => {
  await hub?.app.close();
  await db?.close();
  await smtp?.close();
});

const list = (headers: Record<string, string>, team = TEAM) => send(hub, '/audit/alerts/rules/', { team_slug: team }, headers);
const create = (headers: Record<string, string>) =>
  send(
    hub,
    '/audit/alerts/rules/create/',
    { team_slug: TEAM, name: `Rule ${randomUUID()}`, condition: { kind: 'every' }, destinations: [{ kind: 'siem' }] },
    headers,
  );

async function onPlan(organizationType: OrganizationType) {
  const res = await hub.post(
    '/auth/token/',
    { team_slug: TEAM, device: { browser: 'Chromium' } },
    { authorization: `Bearer ${await signGrant({ organizationType })}` },
  );
  return { authorization: `Bearer ${((await res.json()) as HubTokens).access}` };
}

describe('who may', () => {
  it('a super admin of a paid organisation lists and creates rules', async () => {
    for (const plan of ['enterprise', 'standard', 'starter'] as const) {
      const headers = await onPlan(plan);
      expect((await list(headers)).status).toBe(200);
      expect((await create(headers)).status).toBe(200);
    }
  });

  it('another role is refused (403), and on the Hub, not only in the console', async () => {
    for (const scopes of [['admin'], ['integrator'], ['recovery_agent']] as const) {
      const headers = await consoleAuth(hub, [...scopes]);
      expect((await list(headers)).status).toBe(403);
      expect((await create(headers)).status).toBe(403);
    }
  });

  it('another plan is refused (403)', async () => {
    for (const plan of ['basic', 'teams'] as const) {
      const headers = await onPlan(plan);
      expect((await list(headers)).status).toBe(403);
      expect((await create(headers)).status).toBe(403);
    }
  });

  it("another team's rules are out of reach: its slug is refused, its rule ids are not found", async () => {
    expect((await list(admin, 'contoso')).status).toBe(403);
    const [other] = await db.query<{ id: string }>(
      `insert into alert_rules (id, team_slug, name, filters, condition, destinations, secrets_sealed, created_by)
       values ($1, 'contoso', 'Theirs', '{}', '{"kind":"every"}', '[]', '', 'x@contoso.example') returning id`,
      [randomUUID()],
    );
    for (const path of ['/audit/alerts/rules/test/', '/audit/alerts/rules/firings/', '/audit/alerts/rules/delete/'])
      expect((await send(hub, path, { team_slug: TEAM, id: other?.id }, admin)).status).toBe(404);
    expect((await db.query('select 1 from alert_rules where id = $1', [other?.id])).length).toBe(1);
  });

  it('with the event-logs service off, the rules are not served', async () => {
    const registration = await registrationsRepository.findByCredential(db, CREDENTIAL);
    if (!registration) throw new Error('no registration');
    await registrationsRepository.setServices(
      db,
      registration.id,
      AUX_SERVICES.filter((s) => s !== 'audit_logs'),
    );
    try {
      expect((await list(admin)).status).toBeGreaterThanOrEqual(400);
      expect((await create(admin)).status).toBeGreaterThanOrEqual(400);
    } finally {
      await registrationsRepository.setServices(db, registration.id, AUX_SERVICES);
    }
    expect((await list(admin)).status).toBe(200);
  });
});

describe('templates', () => {
  it('repeated failed sign-ins from one address: switched on in one click, mailed to the admin who did', async () => {
    const before = await send<{ templates: string[] }>(hub, '/audit/alerts/rules/', { team_slug: TEAM }, admin);
    expect(before.body.templates).toContain('failed_sign_ins');
    const on = await send<{ rule: AlertRule }>(
      hub,
      '/audit/alerts/templates/enable/',
      { team_slug: TEAM, template: 'failed_sign_ins', name: 'Repeated failed sign-ins' },
      admin,
    );
    expect(on.status).toBe(200);
    expect(on.body.rule.destinations).toEqual([
      expect.objectContaining({ kind: 'email', recipients: ['alex@northwind.example'] }),
    ]);
    const after = await send<{ templates: string[] }>(hub, '/audit/alerts/rules/', { team_slug: TEAM }, admin);
    expect(after.body.templates).not.toContain('failed_sign_ins');

    const mails = smtp.mail.filter((m) => m.to.includes('alex@northwind.example')).length;
    const events = Array.from({ length: 5 }, () => ({
      id: randomUUID(),
      actor: 'alex@northwind.example',
      actor_type: 'admin',
      activity: 'auth.sign_in_failed',
      component: 'auth',
      ip: '192.0.2.44',
      occurred_at: new Date().toISOString(),
      outcome: 'failure',
    }));
    expect((await postSigned(hub, '/api/v1/integrate/events/', { team_slug: TEAM, events })).status).toBe(200);
    const [mail] = (await smtp.waitFor('alex@northwind.example', mails + 1, 20_000)).slice(mails);
    expect(mail?.raw).toContain('192.0.2.44');
    await pollUntil(
      async () =>
        (await send<{ firings: unknown[] }>(hub, '/audit/alerts/rules/firings/', { team_slug: TEAM, id: on.body.rule.id }, admin))
          .body.firings.length === 1,
      { ms: 10_000, what: 'the firing in the history' },
    );
  });
});
