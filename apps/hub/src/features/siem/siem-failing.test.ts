import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { send } from '../../testing/clients.ts';
import { type RunningHub, TEAM } from '../../testing/hub-fixture.ts';
import { pollUntil, siemCalls, startSiemHub } from '../../testing/siem-hub.ts';
import { selfSignedCert, WEBHOOK_SIGNING_SECRET, WEBHOOK_TOKEN, webhookReceiver } from '../../testing/siem-receivers.ts';

/**
 * A SIEM destination failing for 15 minutes says so once in the team's log (`siem.delivery_failing`,
 * what the alert template watches); a delivery starts the count again.
 */
let db: Db;
let hub: RunningHub;
let admin: Record<string, string>;
let close: () => Promise<void>;

beforeAll(async () => {
  const tls = selfSignedCert();
  const receiver = await webhookReceiver(tls);
  ({ db, hub, admin, close } = await startSiemHub({ SIEM_CA_FILE: tls.certFile, SIEM_PUMP_INTERVAL_MS: '100' }));
  const { configure, update } = siemCalls(() => ({ hub, admin }));
  const saved = await configure({
    siem_tool: 'other',
    url: `${receiver.url}/ingest`,
    token: WEBHOOK_TOKEN,
    signing_secret: WEBHOOK_SIGNING_SECRET,
  });
  expect(saved.status).toBe(200);
  await update(saved.body.data?.id ?? '', 'activate');
  receiver.down = true;
});
afterAll(() => close?.());

const failingEvents = async () =>
  (
    await send<{ results: { target: string; outcome: string }[] }>(
      hub,
      '/audit/logs/fetch/',
      { team_slug: TEAM, filters: { activities: ['siem.delivery_failing'] } },
      admin,
    )
  ).body.results;

it('failing for 15 minutes is said once in the log; not before', async () => {
  const { adminChanges } = siemCalls(() => ({ hub, admin }));
  await adminChanges(3);
  await pollUntil(
    async () => {
      const [d] = await db.query<{ failures: number }>('select failures from siem_destinations where team_slug = $1', [TEAM]);
      return (d?.failures ?? 0) >= 1;
    },
    { ms: 15_000, what: 'a failed delivery' },
  );
  expect(await failingEvents()).toEqual([]);
  // Fifteen minutes later (the first failure moved back), the next failure says so, and only once.
  await db.query(
    `update siem_destinations set failing_since = now() - interval '16 minutes', next_attempt_at = null where team_slug = $1`,
    [TEAM],
  );
  await pollUntil(async () => (await failingEvents()).length === 1, { ms: 15_000, what: 'siem.delivery_failing' });
  await db.query('update siem_destinations set next_attempt_at = null where team_slug = $1', [TEAM]);
  await pollUntil(
    async () => {
      const [d] = await db.query<{ failures: number }>('select failures from siem_destinations where team_slug = $1', [TEAM]);
      return (d?.failures ?? 0) >= 3;
    },
    { ms: 15_000, what: 'more failures' },
  );
  expect(await failingEvents()).toEqual([expect.objectContaining({ target: 'other', outcome: 'failure' })]);
});
