import { Alert, Button, Divider, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Redirect, useLocation } from 'wouter';
import { errorMessage } from '../../lib/api-error.ts';
import { deviceInfo } from '../../lib/auth.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { authApi } from './api.ts';
import { updateLoginState, useLoginState } from './login-state.ts';
import { StepHeader } from './StepHeader.tsx';
import { startSso } from './sso.ts';

/**
 * /login/sso-otp-choice (spec §2): an emailed-code admin of a team with SSO chooses SSO or the
 * code. Needs an email, auth mode default and SSO active; the code is only sent once chosen.
 */
export function SsoOtpChoiceStep() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const login = useLoginState();
  const [busy, setBusy] = useState<'sso' | 'otp' | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!login.email || login.auth !== 'default' || login.sso_configurations.length === 0) return <Redirect to="/login" replace />;

  async function run(which: 'sso' | 'otp', fn: () => Promise<void>) {
    setBusy(which);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(null);
    }
  }

  const withSso = () => run('sso', () => startSso(login));
  const anotherWay = () =>
    run('otp', async () => {
      await authApi.login({ email: login.email, team_slug: login.team_slug, signin_with_otp: true, device: deviceInfo() });
      updateLoginState({ tfa_type: 'otp_email', otp_sent: true });
      navigate('/login/verify-otp');
    });

  return (
    <Stack gap="md">
      <StepHeader titleKey="loginpage.sso_choice_title" email={login.email} teamName={login.team_name} />
      <Text size="sm">{t('loginpage.sso_choice_info')}</Text>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {t(error)}
        </Alert>
      )}
      <Button size="md" fullWidth onClick={withSso} loading={busy === 'sso'} disabled={busy !== null}>
        {t('Sign In With SSO')}
      </Button>
      <Divider label={t('loginpage.or')} labelPosition="center" />
      <Button size="md" variant="default" fullWidth onClick={anotherWay} loading={busy === 'otp'} disabled={busy !== null}>
        {t('Sign In Another Way')}
      </Button>
    </Stack>
  );
}
