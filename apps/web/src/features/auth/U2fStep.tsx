import { Alert, Button, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Redirect } from 'wouter';
import { errorMessage } from '../../lib/api-error.ts';
import { completeSignIn } from '../../lib/auth.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { authApi } from './api.ts';
import { useLoginState } from './login-state.ts';
import { StepHeader } from './StepHeader.tsx';

/** /login/u2f: after the password, one of the admin's security keys (WebAuthn). */
export function U2fStep() {
  const { t } = useTranslation();
  const login = useLoginState();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const started = useRef(false);
  const ready = Boolean(login.email && login.password && login.tfa_type === 'u2f');

  async function tryKey() {
    setBusy(true);
    setError(null);
    try {
      const proof = { email: login.email, password: login.password, team_slug: login.team_slug };
      const { options } = await authApi.u2fSignInOptions(proof);
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const response = await startAuthentication({ optionsJSON: options as never });
      const success = await authApi.verifyU2f({ ...proof, response: response as unknown as Record<string, unknown> });
      await completeSignIn(success, login.email);
    } catch (e) {
      // The browser's own refusals (cancelled, timed out) are not server errors.
      setError(e instanceof Error && e.name === 'NotAllowedError' ? 'loginpage.u2f_cancelled' : errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    if (ready && !started.current) {
      started.current = true;
      void tryKey();
    }
  });

  if (!ready) return <Redirect to="/login" replace />;
  return (
    <Stack gap="md">
      <StepHeader titleKey="loginpage.u2f_title" email={login.email} teamName={login.team_name} />
      <Text size="sm">{t('loginpage.u2f_info')}</Text>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {t(error)}
        </Alert>
      )}
      <Button size="md" loading={busy} onClick={() => void tryKey()} fullWidth>
        {t('loginpage.u2f_start')}
      </Button>
    </Stack>
  );
}
