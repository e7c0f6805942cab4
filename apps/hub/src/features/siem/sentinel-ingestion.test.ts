import { outboundPolicy } from '@latchkey/runtime';
import { describe, expect, it } from 'vitest';
import { DeliveryError } from './sender-http.ts';
import { chunkRecords, sentinelLogsIngestion } from './sentinel.ts';

const config = {
  api: 'logs_ingestion',
  tenant_id: 'contoso.onmicrosoft.com',
  client_id: 'app',
  client_secret: 'secret',
  dce_endpoint: 'https://127.0.0.1:9',
  dcr_immutable_id: 'dcr-0a1b2c3d4e5f60718293a4b5c6d7e8f9',
  stream_name: 'Custom-LatchkeyEvents',
};
const events = [{ id: 'e1', seq: 1, occurred_at: new Date().toISOString() }];
const ctx = (tokenUrl: string, production: boolean) => ({
  policy: outboundPolicy({ production }),
  sentinelUrl: '',
  sentinelTokenUrl: tokenUrl,
  channel: 'c',
});

describe('Sentinel Logs Ingestion', () => {
  it('asks for the token through the outbound guard: a metadata address is refused, and a private one in production', async () => {
    const metadata = sentinelLogsIngestion(events, config, ctx('https://169.254.169.254/{tenant_id}/oauth2/v2.0/token', false));
    await expect(metadata).rejects.toThrow(DeliveryError);
    await expect(metadata).rejects.toThrow(/link-local/);
    await expect(
      sentinelLogsIngestion(events, config, ctx('https://127.0.0.1:9/{tenant_id}/oauth2/v2.0/token', true)),
    ).rejects.toThrow(/loopback/);
  });

  it('cuts a batch into calls of at most 1 MB, each a JSON array', () => {
    const records = Array.from({ length: 3000 }, (_, i) => ({ id: String(i), pad: 'x'.repeat(900) }));
    const calls = chunkRecords(records);
    expect(calls.length).toBeGreaterThan(2);
    expect(calls.every((c) => c.length <= 1_000_000)).toBe(true);
    expect(calls.flatMap((c) => (JSON.parse(c) as { id: string }[]).map((r) => r.id))).toEqual(records.map((r) => r.id));
  });
});
