import { randomUUID } from 'node:crypto';
import type { AlertRule } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { type SmtpReceiver, startSmtpReceiver } from '@latchkey/runtime/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ALERT_SIGNING_SECRET,
  type AlertReceiver,
  alertWebhookReceiver,
  slackReceiver,
  teamsReceiver,
} from '../../testing/alert-receivers.ts';
import { consoleAuth, send } from '../../testing/clients.ts';
import { createHubDb, postSigned, type RunningHub, startHub, TEAM } from '../../testing/hub-fixture.ts';
import { pollUntil } from '../../testing/siem-hub.ts';
import { selfSignedCert } from '../../testing/siem-receivers.ts';

/**
 * Alert rules over HTTP against a real Hub: rules × conditions × destinations, the cooldown, a
 * firing made once per window when a batch is evaluated again, the secret rule, test alerts and
 * the history. Events come in as the licence server's signed feed sends them.
 */
let db: Db;
let hub: RunningHub;
let smtp: SmtpReceiver;
let admin: Record<string, string>;
const r = {} as Record<'webhook' | 'slack' | 'teams', AlertReceiver>;

beforeAll(async () => {
  const tls = selfSignedCert();
  r.webhook = await alertWebhookReceiver(tls);
  r.slack = await slackReceiver(tls);
  r.teams = await teamsReceiver(tls);
  smtp = await startSmtpReceiver();
  db = await createHubDb();
  hub = await startHub(db, {
    SIEM_CA_FILE: tls.certFile,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Northwind Hub <hub@northwind.example>',
    ALERT_PUMP_INTERVAL_MS: '100',
    ALERT_RETRY_DELAY_SECONDS: '1',
    ALERT_RETRY_LIMIT: '3',
  });
  admin = await consoleAuth(hub);
});
afterAll(async () => {
  await hub?.app.close();
  await db?.close();
  await smtp?.close();
});

type Reply = { code?: string; message_key?: string; issues?: { path: string; message: string }[]; rule: AlertRule };
const call = <T = Reply>(path: string, input: Record<string, unknown>, headers = admin) =>
  send<T>(hub, `/audit/alerts${path}`, { team_slug: TEAM, ...input }, headers);
const until = (check: () => boolean | Promise<boolean>, what: string) => pollUntil(check, { ms: 20_000, what });

/** Events as the licence server's feed sends them. */
async function feed(events: { activity: string; actor?: string; ip?: string; target?: string }[]) {
  const body = events.map((e) => ({
    id: randomUUID(),
    actor: e.actor ?? 'alex@northwind.example',
    actor_type: 'admin',
    activity: e.activity,
    component: e.activity.split('.')[0],
    target: e.target ?? '',
    ip: e.ip ?? '',
    occurred_at: new Date().toISOString(),
    outcome: e.activity.endsWith('failed') ? 'failure' : 'success',
  }));
  expect((await postSigned(hub, '/api/v1/integrate/events/', { team_slug: TEAM, events: body })).status).toBe(200);
  return body.map((e) => e.id);
}

type Firing = {
  id: string;
  group_key: string;
  test: boolean;
  event_count: number;
  events: { id: string }[];
  deliveries: { kind: string; status: string; attempts: number }[];
};
const firings = async (id: string) => (await call<{ firings: Firing[] }>('/rules/firings/', { id })).body.firings;

/** The team's events of an activity, newest first. */
async function logged(activity: string) {
  const res = await send<{ results: { activity: string; target: string; detail: Record<string, unknown> }[] }>(
    hub,
    '/audit/logs/fetch/',
    { team_slug: TEAM, page_size: 100, filters: { activities: [activity] } },
    admin,
  );
  return res.body.results;
}

const webhookTo = (receiver: AlertReceiver) => ({
  kind: 'webhook',
  url: `${receiver.url}/alerts`,
  signing_secret: ALERT_SIGNING_SECRET,
});

let activity = 0;
/** An activity code of the test's own, so each test's rule sees only its own events. */
const fresh = () => `test.case_${++activity}_${randomUUID().slice(0, 8)}`;

describe('conditions and destinations', () => {
  it('every match: each event fires once, signed to the webhook, kept with its event, logged as alert.fired', async () => {
    const code = fresh();
    const created = await call('/rules/create/', {
      name: 'Every group change',
      filters: { activities: [code] },
      condition: { kind: 'every' },
      destinations: [webhookTo(r.webhook)],
    });
    expect(created.status).toBe(200);
    const rule = created.body.rule;
    const ids = await feed([{ activity: code }, { activity: 'other.thing' }, { activity: code }, { activity: code }]);
    await until(async () => (await firings(rule.id)).length === 3, 'three firings');
    const history = await firings(rule.id);
    expect(history.flatMap((f) => f.events.map((e) => e.id)).sort()).toEqual([ids[0], ids[2], ids[3]].sort());
    await until(
      () => r.webhook.bodies.filter((b) => (b.rule as { id: string }).id === rule.id).length === 3,
      'three signed calls',
    );
    await until(
      async () => (await firings(rule.id)).every((f) => f.deliveries.every((d) => d.status === 'delivered')),
      'delivered',
    );
    const fired = (await logged('alert.fired')).filter((e) => e.detail.rule_id === rule.id);
    expect(fired).toHaveLength(3);
    expect((await logged('alert.rule_created')).some((e) => e.detail.rule_id === rule.id)).toBe(true);
  });

  it('N in M minutes per address: five failures from one address fire once with them; four from another do not', async () => {
    const code = fresh();
    const { body } = await call('/rules/create/', {
      name: 'Failed sign-ins',
      filters: { activities: [code] },
      condition: { kind: 'threshold', count: 5, minutes: 10, group_by: 'ip' },
      destinations: [
        { kind: 'email', recipients: ['sam@northwind.example'] },
        { kind: 'slack', url: `${r.slack.url}/services/T000/B000/XXXX` },
        { kind: 'teams', url: `${r.teams.url}/workflows/trigger` },
        { kind: 'siem' },
      ],
    });
    const mailsBefore = smtp.mail.length;
    const fromA = await feed(Array.from({ length: 5 }, () => ({ activity: code, ip: '203.0.113.7' })));
    await feed(Array.from({ length: 4 }, () => ({ activity: code, ip: '198.51.100.2' })));
    await until(async () => (await firings(body.rule.id)).length === 1, 'one firing');
    const [firing] = await firings(body.rule.id);
    expect(firing?.group_key).toBe('203.0.113.7');
    expect(firing?.events.map((e) => e.id).sort()).toEqual([...fromA].sort());
    await smtp.waitFor(
      'sam@northwind.example',
      smtp.mail.slice(0, mailsBefore).filter((m) => m.to.includes('sam@northwind.example')).length + 1,
    );
    const mail = smtp.mail.slice(mailsBefore).find((m) => m.to.includes('sam@northwind.example'));
    expect(mail?.raw).toContain('Failed sign-ins');
    expect(mail?.raw).toContain('203.0.113.7');
    await until(() => r.slack.bodies.some((b) => String(b.text).includes('Failed sign-ins')), 'the Slack message');
    await until(() => r.teams.bodies.some((b) => JSON.stringify(b).includes('Failed sign-ins')), 'the Teams card');
    const fired = (await logged('alert.fired')).find((e) => e.detail.rule_id === body.rule.id);
    expect(fired?.detail.siem_alert).toBe(true);
    // One more from the first address starts a new window: no second firing.
    await feed([{ activity: code, ip: '203.0.113.7' }]);
    await new Promise((done) => setTimeout(done, 600));
    expect(await firings(body.rule.id)).toHaveLength(1);
  });

  it('the cooldown keeps a rule quiet after it fired', async () => {
    const code = fresh();
    const { body } = await call('/rules/create/', {
      name: 'Quiet for an hour',
      filters: { activities: [code] },
      condition: { kind: 'every' },
      cooldown_minutes: 60,
      destinations: [{ kind: 'siem' }],
    });
    await feed([{ activity: code }, { activity: code }, { activity: code }]);
    await until(async () => (await firings(body.rule.id)).length === 1, 'the first firing');
    await new Promise((done) => setTimeout(done, 600));
    expect(await firings(body.rule.id)).toHaveLength(1);
  });

  it('a switched-off rule fires nothing, not even once switched on again for what came meanwhile', async () => {
    const code = fresh();
    const { body } = await call('/rules/create/', {
      name: 'Switched',
      filters: { activities: [code] },
      condition: { kind: 'every' },
      destinations: [{ kind: 'siem' }],
      enabled: false,
    });
    await feed([{ activity: code }]);
    await new Promise((done) => setTimeout(done, 600));
    expect(await firings(body.rule.id)).toHaveLength(0);
    expect((await call('/rules/enable/', { id: body.rule.id, enabled: true })).body.rule.enabled).toBe(true);
    const [later] = await feed([{ activity: code }]);
    await until(async () => (await firings(body.rule.id)).length === 1, 'a firing');
    await new Promise((done) => setTimeout(done, 400));
    expect((await firings(body.rule.id)).map((f) => f.events.map((e) => e.id))).toEqual([[later]]);
  });
});

it('matches past their window are forgotten (a group never seen again keeps nothing)', async () => {
  const code = fresh();
  const { body } = await call('/rules/create/', {
    name: 'Forgets',
    filters: { activities: [code] },
    condition: { kind: 'threshold', count: 3, minutes: 10, group_by: 'ip' },
    destinations: [{ kind: 'siem' }],
  });
  await feed([{ activity: code, ip: '192.0.2.200' }]);
  const kept = async () => (await db.query('select 1 from alert_matches where rule_id = $1', [body.rule.id])).length;
  await until(async () => (await kept()) === 1, 'the match kept in its window');
  await db.query(`update alert_matches set recorded_at = now() - interval '11 minutes' where rule_id = $1`, [body.rule.id]);
  await feed([{ activity: 'other.thing' }]);
  await until(async () => (await kept()) === 0, 'the expired match forgotten');
});

describe('the history', () => {
  it('pages a rule with more than 20 firings: newest first, with the total and the pages, each firing once', async () => {
    const code = fresh();
    const { body } = await call('/rules/create/', {
      name: 'Many firings',
      filters: { activities: [code] },
      condition: { kind: 'every' },
      destinations: [webhookTo(r.webhook)],
    });
    await feed(Array.from({ length: 23 }, () => ({ activity: code })));
    type Page = { firings: (Firing & { fired_at: string })[]; total: number; pages: number };
    const page = async (n: number, size?: number) =>
      (await call<Page>('/rules/firings/', { id: body.rule.id, page: n, ...(size ? { page_size: size } : {}) })).body;
    await until(async () => (await page(1)).total === 23, '23 firings');
    const pages = [await page(1), await page(2), await page(3)];
    // Ten a page unless asked otherwise (the console's page).
    expect(pages.map((p) => p.firings.length)).toEqual([10, 10, 3]);
    expect(pages.every((p) => p.total === 23 && p.pages === 3)).toBe(true);
    const all = pages.flatMap((p) => p.firings);
    expect(new Set(all.map((f) => f.id)).size).toBe(23);
    const times = all.map((f) => Date.parse(f.fired_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await page(4)).firings).toEqual([]);
    expect((await page(1, 25)).firings.map((f) => f.id)).toEqual(all.map((f) => f.id));
    expect((await call('/rules/firings/', { id: body.rule.id, page_size: 101 })).status).toBe(400);
  });
});

describe('never twice for the same window', () => {
  beforeEach(async () => {
    await until(async () => {
      const [c] = await db.query<{ behind: boolean }>(
        `select c.cursor_seq < h.seq as behind from alert_cursors c join event_chain_heads h using (team_slug) where c.team_slug = $1`,
        [TEAM],
      );
      return c?.behind === false;
    }, 'the evaluation to catch up');
  });

  it('a batch evaluated again (the cursor set back, as after a crash before it moved) makes no second firing', async () => {
    const code = fresh();
    const { body } = await call('/rules/create/', {
      name: 'Evaluated twice',
      filters: { activities: [code] },
      condition: { kind: 'threshold', count: 2, minutes: 5, group_by: 'actor' },
      destinations: [{ kind: 'siem' }],
    });
    const [head] = await db.query<{ seq: string }>('select seq::text from event_chain_heads where team_slug = $1', [TEAM]);
    await feed([
      { activity: code, actor: 'a@northwind.example' },
      { activity: code, actor: 'a@northwind.example' },
      { activity: code },
    ]);
    await until(async () => (await firings(body.rule.id)).length === 1, 'one firing');
    // Only the firing's own state is put back as it was before the batch: the windows were consumed by it.
    await db.query('update alert_cursors set cursor_seq = $2 where team_slug = $1', [TEAM, Number(head?.seq)]);
    await db.query('delete from alert_matches where rule_id = $1', [body.rule.id]);
    await new Promise((done) => setTimeout(done, 800));
    expect(await firings(body.rule.id)).toHaveLength(1);
    const fired = (await logged('alert.fired')).filter((e) => e.detail.rule_id === body.rule.id);
    expect(fired).toHaveLength(1);
  });
});
