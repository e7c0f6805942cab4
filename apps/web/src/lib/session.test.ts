import { TOKEN_EXPIRY_MARGIN_MS } from '@latchkey/contracts/client';
import { describe, expect, it } from 'vitest';
import { needsRefresh, onSessionEnd, rememberPath, type Session, setSession, takeRememberedPath } from './session.ts';

describe('token refresh timing', () => {
  it('refreshes within two minutes of expiry, not before', () => {
    const now = 1_000_000;
    expect(needsRefresh(now + TOKEN_EXPIRY_MARGIN_MS + 1, now)).toBe(false);
    expect(needsRefresh(now + TOKEN_EXPIRY_MARGIN_MS, now)).toBe(true);
    expect(needsRefresh(now - 1, now)).toBe(true);
  });
});

describe('remembered path', () => {
  it('remembers a console path once, and never a login path', () => {
    rememberPath('/settings');
    rememberPath('/login/verify-otp');
    expect(takeRememberedPath()).toBe('/settings');
    expect(takeRememberedPath()).toBeNull();
  });

  it('never remembers a one-time link (family, SSO return, email link, reset), but keeps look-alike console paths', () => {
    for (const path of ['/family/abc', '/sso?sso_status=success', '/sso', '/email-verification/t', '/reset-password?x=1']) {
      rememberPath(path);
      expect(takeRememberedPath(), path).toBeNull();
    }
    rememberPath('/ssoish');
    expect(takeRememberedPath()).toBe('/ssoish');
  });
});

describe('session end', () => {
  it('is told when the session ends, not when one starts or changes', () => {
    let ended = 0;
    const stop = onSessionEnd(() => ended++);
    const session = { email: 'a@x.example', team_slug: 'x', token: {}, hub: null } as unknown as Session;
    setSession(session);
    setSession({ ...session, team_slug: 'y' });
    expect(ended).toBe(0);
    setSession(null);
    expect(ended).toBe(1);
    stop();
    setSession(session);
    setSession(null);
    expect(ended).toBe(1);
  });
});
