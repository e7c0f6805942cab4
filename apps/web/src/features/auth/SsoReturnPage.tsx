import { SSO_AUTH_FAILED, SSO_POLL_INTERVAL_MS, SSO_POLL_TRIES } from '@latchkey/contracts/client';
import { Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Redirect } from 'wouter';
import { completeSignIn, deviceInfo } from '../../lib/auth.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { reportTestResult } from '../sso/index.ts';
import { authApi } from './api.ts';
import { SsoErrorPanel } from './SsoErrorPanel.tsx';

/** The SSO result: in the hash's query (`#/sso?sso_status=…`) or the page's; null when there is none. */
function ssoQuery(): URLSearchParams | null {
  const raw = window.location.hash.split('?')[1] || window.location.search.slice(1);
  return raw ? new URLSearchParams(raw) : null;
}

/**
 * Spec §2 guards: SSO callback parameters (sso_status=success with a token, or an
 * error_identifier) let /login/verify-password open without the earlier steps' data.
 */
export function hasSsoCallback(): boolean {
  const query = ssoQuery();
  if (!query) return false;
  return (query.get('sso_status') === 'success' && Boolean(query.get('token'))) || Boolean(query.get('error_identifier'));
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * sso (spec §2, §4 SSO return): without a query string it goes to '/'. With sso_status=success and
 * a token it asks for the sign-in once a second; after five tries it shows error 45038. Any other
 * result shows its response_key (or error_identifier) on the SSO error page.
 */
export function SsoReturnPage() {
  const [query] = useState(ssoQuery);
  if (!query) return <Redirect to="/" replace />;
  const testRequest = query.get('test') === '1' ? query.get('saml_request_id') : null;
  if (testRequest)
    return <SsoTestReturn id={testRequest} success={query.get('sso_status') === 'success'} code={query.get('response_key')} />;
  const token = query.get('token');
  if (query.get('sso_status') === 'success' && token) return <SsoSignIn token={token} />;
  return <SsoErrorPanel code={query.get('response_key') || query.get('error_identifier') || SSO_AUTH_FAILED} />;
}

function SsoSignIn({ token }: { token: string }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The token is a secret: keep it out of the address bar and history once read (on the same
    // route, /sso or /login/verify-password, so this page stays).
    window.history.replaceState(null, '', `${window.location.hash.split('?')[0] || '#/sso'}?sso_status=success`);
    void (async () => {
      for (let attempt = 1; attempt <= SSO_POLL_TRIES; attempt++) {
        try {
          const success = await authApi.ssoVerifyToken({ token, device: deviceInfo() });
          await completeSignIn(success, success.email);
          return;
        } catch {
          if (attempt < SSO_POLL_TRIES) await wait(SSO_POLL_INTERVAL_MS);
        }
      }
      setFailed(true);
    })();
  }, [token]);

  if (failed) return <SsoErrorPanel code={SSO_AUTH_FAILED} />;
  return (
    <Stack align="center" py="lg" gap="sm" aria-busy="true" data-testid="sso-verifying">
      <Loader size="sm" />
      <Text size="sm" c="dimmed">
        {t('loginpage.signing_in')}
      </Text>
    </Stack>
  );
}

/**
 * The test window (spec §4): sends the result to the settings page over the test channel, and
 * closes once the page acknowledges it. Signs nobody in.
 */
function SsoTestReturn({ id, success, code }: { id: string; success: boolean; code: string | null }) {
  const { t } = useTranslation();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void reportTestResult({
      type: 'sso_test_result',
      saml_request_id: id,
      status: success ? 'success' : 'failed',
      response_key: success ? null : code || SSO_AUTH_FAILED,
    }).then(() => window.close());
  }, [id, success, code]);
  return (
    <Stack align="center" py="lg" gap="sm" data-testid="sso-test-window">
      <Text size="sm">{t(success ? 'sso.test_passed' : 'sso.test_failed')}</Text>
      <Text size="sm" c="dimmed">
        {t('sso.test_window_hint')}
      </Text>
    </Stack>
  );
}
