// OpenTelemetry traces as a collector receives them: one console request, through the server and
// its SQL, to the Hub over HTTP and the Hub's SQL, is one trace with an unbroken parent chain.
import { startTracing } from '@latchkey/runtime';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_ADMINS } from '../features/demo/seed.ts';
import { type Harness, startHarness } from './harness.ts';
import { type ReceivedSpan, SPAN_KIND, startOtlpReceiver } from './otlp-receiver.ts';

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let stopTracing: () => Promise<void>;
let h: Harness;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  stopTracing = startTracing({ serviceName: 'latchkey-test', endpoint: receiver.url });
  h = await startHarness({ hub: true });
}, 90_000);
afterAll(async () => {
  await h?.close();
  await receiver?.close();
});

test('switching a Hub service on is one trace: server request → its SQL → call to the Hub → the Hub request → its SQL, with the request id', async () => {
  const { token } = await h.signIn(DEMO_ADMINS.superAdmin);
  const path = '/api/v1/policy/team/enable/aux/services/';
  const response = await fetch(h.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token.access}`, 'content-type': 'application/json', 'x-request-id': 'trace-check-1' },
    body: JSON.stringify({ credential_id: 'demo-hub', services: ['enable_audit'] }),
  });
  expect(response.status).toBe(200);
  await stopTracing(); // flushes every span to the collector

  const spans = receiver.spans;
  const byParent = (parent: ReceivedSpan, scope: string) =>
    spans.filter((s) => s.parentSpanId === parent.spanId && s.scope === scope);
  const request = spans.find((s) => s.scope === 'latchkey-server' && s.name === `POST ${path}`);
  expect(request?.kind).toBe(SPAN_KIND.server);
  expect(request?.parentSpanId).toBe('');
  expect(request?.attributes).toMatchObject({ 'latchkey.request_id': 'trace-check-1', 'http.response.status_code': 200 });
  if (!request) return;

  expect(byParent(request, 'latchkey-db').length).toBeGreaterThan(0);
  const call = byParent(request, 'latchkey-http').find((s) => s.kind === SPAN_KIND.client);
  expect(call?.attributes['http.response.status_code']).toBe(200);
  if (!call) return;

  const [hubRequest] = byParent(call, 'latchkey-hub');
  expect(hubRequest?.kind).toBe(SPAN_KIND.server);
  expect(hubRequest?.traceId).toBe(request.traceId);
  expect(hubRequest?.attributes['latchkey.request_id']).toBe('trace-check-1');
  if (!hubRequest) return;
  const hubSql = byParent(hubRequest, 'latchkey-db');
  expect(hubSql.length).toBeGreaterThan(0);
  // The statement's text, never its values.
  expect(hubSql.every((s) => typeof s.attributes['db.query.text'] === 'string')).toBe(true);
  expect(JSON.stringify(spans)).not.toContain(token.access);
}, 60_000);
