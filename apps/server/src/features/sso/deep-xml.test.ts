import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { startTestIdp, type TestIdp } from '../../test/saml-idp.ts';
import { postToAcs } from '../../test/sso-acs.ts';
import { DEMO_ADMINS } from '../demo/index.ts';
import { NS } from './xml.ts';

/**
 * XML nested thousands of levels deep used to overflow the stack in the walk after parsing: the
 * ACS (no session needed) and the metadata upload answered 500. Both now refuse it as any invalid
 * document: the ACS with the §8 code of an invalid response, the metadata with its own error.
 */
let h: Harness;
let idp: TestIdp;
let alex: string;
let configUuid: string;
let metadataServer: Server;
let metadataUrl: string;
let served = '';

const b64 = (xml: string) => Buffer.from(xml).toString('base64');
const nested = (depth: number, open: string, close: string) => `${open.repeat(depth)}${close.repeat(depth)}`;

/** A SAML Response whose body is `depth` nested elements (plain, or assertions inside assertions). */
const deepResponse = (depth: number, element = 'a') =>
  `<samlp:Response xmlns:samlp="${NS.samlp}" xmlns:s="${NS.saml}" ID="_r" InResponseTo="_x" Version="2.0">${nested(
    depth,
    `<${element}>`,
    `</${element}>`,
  )}</samlp:Response>`;

/** The identity provider's own metadata with `depth` nested elements added inside it. */
const deepMetadata = (depth: number) =>
  idp.metadataXml.replace(/(<\/[^>]*EntityDescriptor>)$/, `${nested(depth, '<x>', '</x>')}$1`);

beforeAll(async () => {
  h = await startHarness();
  idp = await startTestIdp();
  alex = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
  const created = await h.post<{ config: { config_uuid: string } }>(
    '/sso/login/config/create/',
    { config_name: 'Deep XML', idp_type: 'generic_saml' },
    alex,
  );
  configUuid = created.body.config.config_uuid;
  metadataServer = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/samlmetadata+xml' });
    response.end(served);
  });
  await new Promise<void>((resolve) => metadataServer.listen(0, '127.0.0.1', resolve));
  metadataUrl = `http://127.0.0.1:${(metadataServer.address() as AddressInfo).port}/metadata`;
}, 60_000);
afterAll(async () => {
  await new Promise<void>((resolve) => metadataServer?.close(() => resolve()));
  await idp?.close();
  await h?.close();
});

async function lastRefusal() {
  const [event] = await h.db.query<{ detail: { reason: string; message: string } }>(
    "select detail from security_events where kind = 'sign_in_failed' order by id desc limit 1",
  );
  return event?.detail;
}

/**
 * Where the stack gave out depends on how deep the call already was: a sweep of depths hits the
 * levels at which parsing still worked and the walk after it did not (about 10,000–12,000 here).
 */
const DEPTHS = Array.from({ length: 25 }, (_, i) => 2_000 + i * 1_000);

describe('the ACS refuses deeply nested XML as an invalid response', () => {
  test('2,000 to 26,000 levels, each posted as the browser posts a SAMLResponse', async () => {
    for (const depth of DEPTHS) {
      const result = await postToAcs(h.url, b64(deepResponse(depth)));
      expect(result.get('token')).toBeNull();
      expect(result.get('response_key')).toBe('45038');
      expect(await lastRefusal(), `${depth} levels`).toMatchObject({
        reason: 'sso_xml',
        message: 'elements nest deeper than 64 levels',
      });
    }
  });

  test('assertions inside assertions, and the same in a JSON body', async () => {
    for (const depth of [10_000, 11_000, 12_000]) {
      const result = await postToAcs(h.url, b64(deepResponse(depth, 's:Assertion')));
      expect(result.get('response_key')).toBe('45038');
      expect((await lastRefusal())?.message).toBe('elements nest deeper than 64 levels');
      const res = await fetch(`${h.url}/sso/login/saml/acs/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ SAMLResponse: b64(deepResponse(depth)) }),
        redirect: 'manual',
      });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toMatch(/#\/sso\?response_key=45038$/);
    }
  });
});

describe('metadata nested too deep is invalid metadata, uploaded or fetched', () => {
  test('2,000 to 26,000 levels, uploaded', async () => {
    for (const depth of DEPTHS) {
      const res = await h.post('/sso/login/config/update/', { config_uuid: configUuid, metadata_xml: deepMetadata(depth) }, alex);
      expect(res.status, `${depth} levels: ${res.text}`).toBe(400);
      expect(res.body).toMatchObject({
        code: 'sso_metadata_invalid',
        message_key: 'sso.metadata_invalid',
        message_values: { reason: 'elements nest deeper than 64 levels' },
      });
    }
  });

  test('10,000 to 12,000 levels, fetched from the metadata URL', async () => {
    for (const depth of [10_000, 11_000, 12_000]) {
      served = deepMetadata(depth);
      const res = await h.post('/sso/login/config/update/', { config_uuid: configUuid, metadata_url: metadataUrl }, alex);
      expect(res.status, `${depth} levels: ${res.text}`).toBe(400);
      expect(res.body).toMatchObject({
        code: 'sso_metadata_invalid',
        message_values: { reason: 'elements nest deeper than 64 levels' },
      });
    }
  });

  test('the same metadata without the nesting is accepted', async () => {
    served = idp.metadataXml;
    const fetched = await h.post('/sso/login/config/update/', { config_uuid: configUuid, metadata_url: metadataUrl }, alex);
    expect(fetched.status, fetched.text).toBe(200);
    const uploaded = await h.post('/sso/login/config/update/', { config_uuid: configUuid, metadata_xml: deepMetadata(20) }, alex);
    expect(uploaded.status, uploaded.text).toBe(200);
  });
});
