import { randomBytes } from 'node:crypto';
import type { SiemTool } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postSigned, type RunningHub, TEAM } from '../../testing/hub-fixture.ts';
import { adminChangeEvents, pollUntil, siemCalls, startSiemHub } from '../../testing/siem-hub.ts';
import { selfSignedCert } from '../../testing/siem-listen.ts';
import { WEBHOOK_TOKEN, type WebhookReceiver, webhookReceiver, webhookRecipe } from '../../testing/webhook-receiver.ts';

/**
 * The webhook is a documented contract (docs/webhook.md): its endpoint here verifies every
 * delivery with the document's own recipe, copied out of the document; the signing secret is the
 * admin's second secret, never the token, never sent back.
 */
let db: Db;
let hub: RunningHub;
let admin: Record<string, string>;
let close: () => Promise<void>;
let endpoint: WebhookReceiver;
const tls = selfSignedCert();

beforeAll(async () => {
  endpoint = await webhookReceiver(tls);
  ({ db, hub, admin, close } = await startSiemHub({ SIEM_CA_FILE: tls.certFile, SIEM_PUMP_INTERVAL_MS: '100' }));
});
afterAll(() => close?.());

const siem = siemCalls(() => ({ hub, admin }));
const { update, tools } = siem;
const configure = (form: Record<string, unknown>) =>
  siem.configure({ siem_tool: 'other', url: `${endpoint.url}/ingest`, token: WEBHOOK_TOKEN, ...form });
/** As the console makes one: 256 random bits. */
const newSecret = () => randomBytes(32).toString('base64url');

const until = (check: () => boolean | Promise<boolean>, ms = 15_000) => pollUntil(check, { ms });

afterEach(() => siem.removeDestination());

describe('the webhook as docs/webhook.md documents it', () => {
  it("deliveries verify with only the document's recipe: signed with the signing secret, the batch's Idempotency-Key, NDJSON events", async () => {
    const secret = newSecret();
    endpoint.signingSecret = secret;
    const saved = await configure({ signing_secret: secret });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const id = (saved.body.data as SiemTool).id;
    await update(id, 'activate');
    const events = adminChangeEvents(5);
    expect((await postSigned(hub, '/api/v1/integrate/events/', { team_slug: TEAM, events })).status).toBe(200);
    await until(() => events.every((e) => endpoint.received.includes(e.id)));
    expect(endpoint.rejected).toEqual([]);
    expect(endpoint.keys.at(-1)).toMatch(new RegExp(`^${TEAM}:\\d+-\\d+$`));

    // The recipe refuses what the document says to refuse: another body, an old timestamp, the token as key.
    const verify = await webhookRecipe();
    const last = endpoint.last as NonNullable<WebhookReceiver['last']>;
    expect(verify({ secret, headers: last.headers, body: last.body }).map((e) => e.id)).toEqual(
      last.body
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { id: string }).id),
    );
    const tampered = Buffer.from(last.body.toString().replace('Group', 'Gruop'));
    expect(() => verify({ secret, headers: last.headers, body: tampered })).toThrow('the signature does not match');
    const at = Number(last.headers['x-latchkey-timestamp']) * 1000;
    expect(() => verify({ secret, headers: last.headers, body: last.body, now: at + 301_000 })).toThrow('too old or too new');
    expect(() => verify({ secret: WEBHOOK_TOKEN, headers: last.headers, body: last.body })).toThrow(
      'the signature does not match',
    );
  });

  it('the signing secret is its own: not the token, long enough, never sent back, kept by an edit that leaves it empty', async () => {
    const same = await configure({ signing_secret: WEBHOOK_TOKEN });
    expect(same.status).toBe(400);
    expect(same.body.issues).toEqual([{ path: 'signing_secret', message: 'siem.form.signing_secret_same' }]);
    const short = await configure({ signing_secret: 'too-short' });
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body)).toContain('siem.form.signing_secret_short');
    const missing = await configure({});
    expect(missing.status).toBe(400);
    expect(missing.body.issues).toEqual([{ path: 'signing_secret', message: 'this field is required' }]);

    const secret = newSecret();
    // An endpoint that does not know the secret refuses the test event: nothing is saved.
    endpoint.signingSecret = newSecret();
    const refused = await configure({ signing_secret: secret });
    expect(refused.body.code).toBe('url_not_accessible');
    expect((await tools()).body.code).toBe('not_found');

    endpoint.signingSecret = secret;
    const saved = await configure({ signing_secret: secret });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const tool = saved.body.data as SiemTool;
    expect(tool.has_secret).toBe(true);
    for (const answer of [saved.body, (await tools()).body]) expect(JSON.stringify(answer)).not.toContain(secret);
    const edited = await configure({ id: tool.id, token: '', signing_secret: '' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const [row] = await db.query<{ config: Record<string, string> }>('select config from siem_destinations where id = $1', [
      tool.id,
    ]);
    expect(row?.config.signing_secret).toBe(secret);
  });
});
