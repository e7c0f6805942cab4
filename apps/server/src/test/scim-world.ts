import { afterAll, beforeAll, expect } from 'vitest';
import { DEMO_ADMINS } from '../features/demo/index.ts';
import { type Harness, startHarness } from './harness.ts';

// biome-ignore lint/suspicious/noExplicitAny: SCIM replies are read loosely, as an identity provider reads them
export type Json = Record<string, any>;

/** A SCIM user as an identity provider creates it. */
export const user = (userName: string, extra: Json = {}) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  name: { givenName: 'Test', familyName: 'User' },
  active: true,
  ...extra,
});

/**
 * The SCIM tests' world: a server (started before the file's tests, closed after them), every demo
 * admin signed in, and an Entra ID connector with its token. Its fields are set once the file's
 * beforeAll ran: read them inside the tests.
 */
export function scimWorld() {
  const w = { h: undefined as unknown as Harness, tokens: new Map<string, string>(), scimToken: '', connectorId: '' };
  beforeAll(async () => {
    w.h = await startHarness();
    for (const [role, email] of Object.entries(DEMO_ADMINS)) w.tokens.set(role, (await w.h.signIn(email)).token.access);
    const created = await w.h.post<{ token: string; tenant_url: string; connector: { id: string } }>(
      '/api/v1/team/scim/connector/create/',
      { idp: 'entra', name: 'Entra ID' },
      w.tokens.get('superAdmin'),
    );
    expect(created.status, created.text).toBe(200);
    w.scimToken = created.body.token;
    w.connectorId = created.body.connector.id;
  });
  afterAll(() => w.h?.close());

  /** A SCIM client: the requests an IdP sends (with the connector's token unless told). */
  async function scim(
    method: string,
    path: string,
    body?: unknown,
    token = w.scimToken,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: Json; headers: Headers }> {
    const res = await fetch(`${w.h.url}/scim/v2${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {}, headers: res.headers };
  }

  return { w, scim };
}
