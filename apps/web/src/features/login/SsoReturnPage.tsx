import { SSO_AUTH_FAILED, SSO_POLL_INTERVAL_MS, SSO_POLL_TRIES } from '@latchkey/contracts/client';
import { Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Redirect } from 'wouter';
import { call } from '../../lib/api.ts';
import { completeSignIn, deviceInfo } from '../../lib/auth.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { SsoErrorPanel } from './SsoErrorPanel.tsx';

/** The SSO result: in the hash's query (`#/sso?sso_status=…`) or the page's; null when there is none. */
function ssoQuery(): URLSearchParams | null {
  const raw = window.location.hash.split('?')[1] || window.location.search.slice(1);
  return raw ? new URLSearchParams(raw) : null;
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
    // The token is a secret: keep it out of the address bar and history once read.
    window.history.replaceState(null, '', '#/sso?sso_status=success');
    void (async () => {
      for (let attempt = 1; attempt <= SSO_POLL_TRIES; attempt++) {
        try {
          const success = await call('ssoVerifyToken', { token, device: deviceInfo() });
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
