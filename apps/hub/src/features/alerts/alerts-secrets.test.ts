import type { AlertRule } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_SIGNING_SECRET, type AlertReceiver, alertWebhookReceiver, slackReceiver } from '../../testing/alert-receivers.ts';
import { consoleAuth, send } from '../../testing/clients.ts';
import { createHubDb, type RunningHub, startHub, TEAM } from '../../testing/hub-fixture.ts';
import { pollUntil } from '../../testing/siem-hub.ts';
import { selfSignedCert } from '../../testing/siem-receivers.ts';

/**
 * The secret rule for alert destinations (as for SIEM destinations): sealed at rest, never sent
 * back, never sent to a changed address unless given again; addresses through the outbound guard;
 * test alerts and retried deliveries.
 */
let db: Db;
let hub: RunningHub;
let admin: Record<string, string>;
let webhook: AlertReceiver;
let slack: AlertReceiver;

beforeAll(async () => {
  const tls = selfSignedCert();
  webhook = await alertWebhookReceiver(tls);
  slack = await slackReceiver(tls);
  db = await createHubDb();
  hub = await startHub(db, {
    SIEM_CA_FILE: tls.certFile,
    ALERT_PUMP_INTERVAL_MS: '100',
    ALERT_RETRY_DELAY_SECONDS: '1',
    ALERT_RETRY_LIMIT: '3',
  });
  admin = await consoleAuth(hub);
});
afterAll(async () => {
  await hub?.app.close();
  await db?.close();
});

type Reply = { code?: string; message_key?: string; issues?: { path: string; message: string }[]; rule: AlertRule };
const call = <T = Reply>(path: string, input: Record<string, unknown>) =>
  send<T>(hub, `/audit/alerts${path}`, { team_slug: TEAM, ...input }, admin);
const rule = (name: string, destinations: unknown[]) => ({
  name,
  filters: { activities: ['group.created'] },
  condition: { kind: 'every' },
  destinations,
});
type Firing = {
  id: string;
  test: boolean;
  deliveries: { kind: string; status: string; attempts: number; last_error: string | null }[];
};
const firings = async (id: string) => (await call<{ firings: Firing[] }>('/rules/firings/', { id })).body.firings;

describe('secrets', () => {
  it('are never sent back, and sealed at rest', async () => {
    const slackUrl = `${slack.url}/services/T1/B1/secret-part`;
    const res = await call(
      '/rules/create/',
      rule('Sealed', [
        { kind: 'webhook', url: `${webhook.url}/a`, signing_secret: ALERT_SIGNING_SECRET },
        { kind: 'slack', url: slackUrl },
      ]),
    );
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body) + JSON.stringify((await call('/rules/', {})).body);
    expect(text).not.toContain(ALERT_SIGNING_SECRET);
    expect(text).not.toContain('secret-part');
    expect(res.body.rule.destinations).toEqual([
      expect.objectContaining({ kind: 'webhook', url: `${webhook.url}/a`, has_secret: true }),
      expect.objectContaining({ kind: 'slack', host: new URL(slack.url).host, has_secret: true }),
    ]);
    const [row] = await db.query<{ destinations: string; secrets_sealed: string }>(
      'select destinations::text, secrets_sealed from alert_rules where id = $1',
      [res.body.rule.id],
    );
    expect(`${row?.destinations}${row?.secrets_sealed}`).not.toContain(ALERT_SIGNING_SECRET);
    expect(`${row?.destinations}${row?.secrets_sealed}`).not.toContain('secret-part');
  });

  it('are kept when left empty at the same address, and asked for again at a new one', async () => {
    const created = await call(
      '/rules/create/',
      rule('Moved', [{ kind: 'webhook', url: `${webhook.url}/a`, signing_secret: ALERT_SIGNING_SECRET }]),
    );
    const [dest] = created.body.rule.destinations;
    const base = { id: created.body.rule.id, ...rule('Moved', []) };
    const same = await call('/rules/update/', {
      ...base,
      destinations: [{ id: dest?.id, kind: 'webhook', url: `${webhook.url}/a`, signing_secret: '' }],
    });
    expect(same.status).toBe(200);
    const moved = await call('/rules/update/', {
      ...base,
      destinations: [{ id: dest?.id, kind: 'webhook', url: 'https://attacker.example/listen', signing_secret: '' }],
    });
    expect(moved.status).toBe(400);
    expect(moved.body.issues).toEqual([{ path: 'destinations.0.signing_secret', message: 'alerts.form.secret_again' }]);
    // The kept secret still signs: a test alert reaches the receiver, which checks the signature.
    const before = webhook.bodies.length;
    expect((await call('/rules/test/', { id: created.body.rule.id })).status).toBe(200);
    await pollUntil(() => webhook.bodies.length > before, { ms: 15_000, what: 'the test alert' });
    expect(webhook.bodies.at(-1)?.type).toBe('alert.test');
  });

  it('a new destination with no secret is refused', async () => {
    const res = await call('/rules/create/', rule('No secret', [{ kind: 'webhook', url: `${webhook.url}/a` }]));
    expect(res.status).toBe(400);
    expect(res.body.issues?.[0]).toEqual({ path: 'destinations.0.signing_secret', message: 'this field is required' });
  });

  it("a secret shorter than the SIEM webhook's minimum (32 characters) is refused; 32 are taken", async () => {
    const withSecret = (name: string, secret: string) =>
      call('/rules/create/', rule(name, [{ kind: 'webhook', url: `${webhook.url}/a`, signing_secret: secret }]));
    const short = await withSecret('Short secret', 's'.repeat(31));
    expect(short.status).toBe(400);
    expect(short.body.issues?.[0]?.path).toBe('destinations.0.signing_secret');
    expect((await withSecret('Long enough secret', 's'.repeat(32))).status).toBe(200);
  });

  it('an address the outbound guard refuses (the metadata service) is refused before it is saved', async () => {
    for (const url of ['https://169.254.169.254/latest', 'https://[::ffff:0:a9fe:a9fe]/x']) {
      const res = await call('/rules/create/', rule(`SSRF ${url}`, [{ kind: 'slack', url }]));
      expect(res.status).toBe(400);
      expect(res.body.issues?.[0]?.message).toBe('alerts.form.url_refused');
    }
    expect((await call<{ rules: AlertRule[] }>('/rules/', {})).body.rules.some((r) => r.name.startsWith('SSRF'))).toBe(false);
  });
});

describe('test alerts and retries', () => {
  it('a test alert is kept in the history, marked, and logged as alert.test_sent', async () => {
    const created = await call('/rules/create/', rule('Tested', [{ kind: 'siem' }]));
    expect((await call('/rules/test/', { id: created.body.rule.id })).status).toBe(200);
    const [firing] = await firings(created.body.rule.id);
    expect(firing?.test).toBe(true);
    const log = await send<{ results: { detail: Record<string, unknown> }[] }>(
      hub,
      '/audit/logs/fetch/',
      { team_slug: TEAM, filters: { activities: ['alert.test_sent'] } },
      admin,
    );
    expect(log.body.results.some((e) => e.detail.rule_id === created.body.rule.id)).toBe(true);
  });

  it('a destination down is retried with backoff until it takes the alert; each attempt is counted', async () => {
    const created = await call('/rules/create/', rule('Retried', [{ kind: 'slack', url: `${slack.url}/services/T2/B2/x` }]));
    slack.down = true;
    await call('/rules/test/', { id: created.body.rule.id });
    await pollUntil(async () => ((await firings(created.body.rule.id))[0]?.deliveries[0]?.attempts ?? 0) >= 1, {
      ms: 15_000,
      what: 'a failed attempt',
    });
    expect((await firings(created.body.rule.id))[0]?.deliveries[0]).toEqual(expect.objectContaining({ status: 'pending' }));
    slack.down = false;
    await pollUntil(async () => (await firings(created.body.rule.id))[0]?.deliveries[0]?.status === 'delivered', {
      ms: 20_000,
      what: 'the retry',
    });
    expect((await firings(created.body.rule.id))[0]?.deliveries[0]?.attempts).toBeGreaterThanOrEqual(2);
  });

  it('an unknown rule is not_found, with its message key', async () => {
    const res = await call('/rules/test/', { id: '00000000-0000-4000-8000-000000000000' });
    expect(res.status).toBe(404);
    expect(res.body.message_key).toBe('errors.alert_rule_not_found');
  });
});
