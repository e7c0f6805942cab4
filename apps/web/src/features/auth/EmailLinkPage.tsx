import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { ApiError, errorMessage } from '../../lib/api-error.ts';
import { deviceInfo } from '../../lib/auth.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { authApi } from './api.ts';
import { CheckingLink, InvalidLink } from './LinkStates.tsx';
import { resetLoginState } from './login-state.ts';

type State = { step: 'checking' } | { step: 'invalid' } | { step: 'ready'; email: string; team_slug: string; team_name: string };

/**
 * The email-link verification page (spec §2, §4): an onboarding invitation's link. It names the
 * email, then on Continue sends a code there (login with device plus on_boarding_verification)
 * and goes to /login/verify-otp; the link is spent with that code. Continue is a click, not
 * automatic: mail scanners that open links must not use them up.
 */
export function EmailLinkPage({ token }: { token: string }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [state, setState] = useState<State>({ step: 'checking' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    authApi
      .emailLinkVerify({ token })
      .then((reply) => setState({ step: 'ready', ...reply }))
      .catch(() => setState({ step: 'invalid' }));
  }, [token]);

  async function proceed() {
    setBusy(true);
    setError(null);
    try {
      const reply = await authApi.login({ device: deviceInfo(), on_boarding_verification: token });
      if (reply.code !== 'onboarding_otp_sent') throw new ApiError('invalid_link', '', 400);
      resetLoginState({
        email: reply.email,
        team_slug: reply.team_slug,
        team_name: reply.team_name,
        tfa_type: 'otp_email',
        otp_sent: true,
        onboarding_token: token,
      });
      navigate('/login/verify-otp');
    } catch (e) {
      if (e instanceof ApiError && e.code === 'invalid_link') setState({ step: 'invalid' });
      else setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  if (state.step === 'checking') return <CheckingLink />;
  if (state.step === 'invalid') return <InvalidLink testId="email-link-invalid" bodyKey="emaillink.invalid_body" />;
  return (
    <Stack gap="md" data-testid="email-link-ready">
      <Title order={2} size="h3">
        {t('emaillink.title')}
      </Title>
      <Text size="sm">{t('emaillink.body', { email: state.email, team: state.team_name })}</Text>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {t(error)}
        </Alert>
      )}
      <Button size="md" fullWidth loading={busy} onClick={proceed}>
        {t('emaillink.send_code')}
      </Button>
    </Stack>
  );
}
