import { SERVER_URL } from './env.ts';
import { DEMO_PASSWORD } from './latchkey.ts';
import { latestCode, mailCursor, withMailLock } from './mail.ts';

/** A POST to the server as the console makes it (same origin), with optional extra headers. */
export async function apiPost<T = Record<string, unknown>>(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(SERVER_URL + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SERVER_URL, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** Signs in over HTTP (email → password → emailed code), as another device would; returns the access token. */
export async function apiSignIn(email: string, teamSlug: string): Promise<string> {
  return withMailLock(email, async () => {
    const after = await mailCursor();
    await apiPost('/api/v1/console/auth/login/', { email, team_slug: teamSlug });
    const password = await apiPost('/api/v1/console/auth/verify/password/', {
      email,
      password: DEMO_PASSWORD,
      team_slug: teamSlug,
    });
    if (password.status !== 200) throw new Error(`verify/password ${password.status}`);
    const otp = await latestCode(email, { after });
    const done = await apiPost<{ token: { access: string } }>('/api/v1/console/auth/verify/otp/', {
      email,
      otp,
      password: DEMO_PASSWORD,
      team_slug: teamSlug,
    });
    if (done.status !== 200) throw new Error(`verify/otp ${done.status}`);
    return done.body.token.access;
  });
}
