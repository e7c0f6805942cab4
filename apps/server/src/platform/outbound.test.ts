import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../config.ts';
import { type Harness, startHarness } from '../test/harness.ts';

/**
 * Security finding 5: an admin sets the team's Hub address; the server then connects there. In
 * production that address must never be inside the server's own network.
 */
let h: Harness;
let token: string;
let listener: Server;
let port: number;
let connections = 0;
beforeAll(async () => {
  // Something internal on this machine: a service the server can reach and an attacker cannot.
  listener = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
  h = await startHarness({ env: { NODE_ENV: 'production' } });
  token = (await h.signIn('alex@northwind.example')).token.access;
});
afterAll(async () => {
  await h?.close();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
});

async function setUpHubAt(url: string) {
  const added = await h.post<{ credential_id: string }>('/api/v1/credentials/add/', { name: 'Probe' }, token);
  expect(added.status).toBe(200);
  return h.post(
    '/api/v1/credentials/setup/',
    { device: { browser: 'vitest' }, latchkey_hosted_hub: { credential_id: added.body.credential_id, server_url: url } },
    token,
  );
}

describe('the Hub address cannot point inside the server’s network (production)', () => {
  test.each([
    [() => `https://127.0.0.1:${port}`],
    [() => `https://localhost:${port}`],
    [() => `https://[::ffff:127.0.0.1]:${port}`],
    [() => `https://hub.localhost:${port}`],
    // Loopback inside SIIT's IPv4-translated form and an ISATAP interface id, hex and dotted.
    [() => `https://[::ffff:0:7f00:1]:${port}`],
    [() => `https://[::ffff:0:127.0.0.1]:${port}`],
    [() => `https://[2606:4700::5efe:7f00:1]:${port}`],
  ])('%#: refused with 400 before any connection', async (url) => {
    const before = connections;
    const res = await setUpHubAt(url());
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_input', message_key: 'errors.outbound_refused' });
    expect(connections).toBe(before);
  });

  test('the cloud metadata address too, however it is wrapped', async () => {
    for (const host of [
      '169.254.169.254',
      '[::ffff:0:a9fe:a9fe]',
      '[::ffff:0:169.254.169.254]',
      '[2606:4700::200:5efe:a9fe:a9fe]',
    ]) {
      const res = await setUpHubAt(`https://${host}`);
      expect(res.status, host).toBe(400);
      expect(res.body.message_key).toBe('errors.outbound_refused');
    }
  });
});

test('SSO metadata is never fetched from the metadata service inside an IPv6 address', async () => {
  const created = await h.post<{ config: { config_uuid: string } }>(
    '/sso/login/config/create/',
    { config_name: 'Probe', idp_type: 'generic_saml' },
    token,
  );
  expect(created.status, created.text).toBe(200);
  for (const host of [
    '[::ffff:0:a9fe:a9fe]',
    '[::ffff:0:169.254.169.254]',
    '[2606:4700::5efe:a9fe:a9fe]',
    `[::ffff:0:7f00:1]:${port}`,
  ]) {
    const before = connections;
    const res = await h.post(
      '/sso/login/config/update/',
      { config_uuid: created.body.config.config_uuid, metadata_url: `https://${host}/metadata` },
      token,
    );
    expect(res.status, `${host}: ${res.text}`).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_input', message_key: 'errors.outbound_refused' });
    expect(connections).toBe(before);
  }
});

test('OUTBOUND_ALLOW names the on-premise Hubs production may reach', () => {
  expect(loadConfig({ OUTBOUND_ALLOW: ' hub.corp.example, 10.20.0.0/16 *.lab.example' }).OUTBOUND_ALLOW).toEqual([
    'hub.corp.example',
    '10.20.0.0/16',
    '*.lab.example',
  ]);
  expect(loadConfig({}).OUTBOUND_ALLOW).toEqual([]);
});
