import { expect } from 'vitest';

/** Posts a response to the ACS at `baseUrl` as the browser does, and reads where it sends the browser. */
export async function postToAcs(baseUrl: string, samlResponse: string): Promise<URLSearchParams> {
  const res = await fetch(`${baseUrl}/sso/login/saml/acs/`, {
    method: 'POST',
    body: new URLSearchParams({ SAMLResponse: samlResponse }),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  const location = res.headers.get('location') ?? '';
  expect(location.startsWith(`${baseUrl}/#/sso?`)).toBe(true);
  return new URLSearchParams(location.split('?')[1]);
}
