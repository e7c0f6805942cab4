// One id follows a console action: the server's calls to a Hub carry the id of the request that
// made them, and a Hub (any app made by createHttpApp) logs and answers under that id.
import { hubVerifyEndpoint } from '@latchkey/contracts';
import { createHttpApp, generateEd25519Key, outboundPolicy, privateKeyOf, publicJwkOf, withRequestId } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { useOutboundPolicy } from '../../platform/outbound.ts';
import { createHubClient } from './hub-client.ts';

let hub: FastifyInstance;
let hubUrl: string;
const seen: { id: string; header: unknown }[] = [];
beforeAll(async () => {
  useOutboundPolicy(outboundPolicy({ production: false }));
  hub = createHttpApp({ logLevel: 'silent', checkReplies: false });
  hub.post(hubVerifyEndpoint.path, async (request, reply) => {
    seen.push({ id: request.id, header: request.headers['x-request-id'] });
    return reply.code(503).send({ code: 'failed', description: 'recorded' });
  });
  hubUrl = await hub.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => hub?.close());

test("the server's call to a Hub carries the id of the request that made it; outside a request the Hub makes its own", async () => {
  const signing = privateKeyOf(generateEd25519Key());
  const client = createHubClient({ signing, publicJwk: publicJwkOf(signing) });
  const target = { server_url: hubUrl, credential_id: 'c1' };
  await expect(withRequestId('web-0a1b2c', () => client.verify(target, 'northwind'))).rejects.toThrow();
  await expect(client.verify(target, 'northwind')).rejects.toThrow();
  expect(seen[0]).toEqual({ id: 'web-0a1b2c', header: 'web-0a1b2c' });
  expect(seen[1]?.header).toBeUndefined();
  expect(seen[1]?.id).toMatch(/^[0-9a-f-]{36}$/);
});
