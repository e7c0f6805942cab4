import { OTP_LENGTH } from '@latchkey/contracts/client';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Redirect, useLocation } from 'wouter';
import { ApiError, errorMessage } from '../../lib/api-error.ts';
import { completeSignIn, deviceInfo } from '../../lib/auth.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { authApi } from './api.ts';
import { CodeBoxes } from './CodeBoxes.tsx';
import { updateLoginState, useLoginState } from './login-state.ts';
import { StepHeader } from './StepHeader.tsx';

/** /login/verify-otp: the six-digit code sent by email (spec §2, §5). */
export function OtpStep() {
  const { t } = useTranslation();
  const login = useLoginState();
  const [, navigate] = useLocation();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [resending, setResending] = useState(false);
  // spec §2: an email (or an onboarding link's) and, for password sign-in, the password.
  if (!login.email || !login.team_slug || (login.auth === 'password' && !login.password && !login.onboarding_token))
    return <Redirect to="/login" replace />;

  async function submit(event?: FormEvent, value = code) {
    event?.preventDefault();
    if (value.length !== OTP_LENGTH || busy) return;
    setBusy(true);
    setFormError(null);
    setCodeError(null);
    try {
      const success = await authApi.verifyOtp({
        email: login.email,
        otp: value,
        password: login.auth === 'password' ? login.password : undefined,
        team_slug: login.team_slug,
        device: deviceInfo(),
        on_boarding_verification: login.onboarding_token || undefined,
      });
      if ('code' in success) {
        // A new admin without a password sets one now; that completes the sign-in (spec §4).
        updateLoginState({ set_auth_token: success.set_auth_token });
        navigate('/login/set-password');
        return;
      }
      await completeSignIn(success, login.email);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'otp_invalid') setCodeError(errorMessage(error));
      else setFormError(errorMessage(error));
      setCode('');
    } finally {
      setBusy(false);
    }
  }

  async function resend() {
    setResending(true);
    setFormError(null);
    setNotice(null);
    try {
      if (login.onboarding_token) {
        await authApi.login({ on_boarding_verification: login.onboarding_token, device: deviceInfo() });
      } else if (login.auth === 'password') {
        await authApi.verifyPassword({
          email: login.email,
          password: login.password,
          team_slug: login.team_slug,
          resend_otp: true,
        });
      } else {
        await authApi.login({ email: login.email, team_slug: login.team_slug, resend_otp: true, device: deviceInfo() });
      }
      setNotice('loginpage.code_resent');
    } catch (error) {
      setFormError(errorMessage(error));
    } finally {
      setResending(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <StepHeader titleKey="loginpage.check_email" email={login.email} teamName={login.team_name} />
        <Text size="sm">{t('loginpage.code_sent_to', { email: login.email })}</Text>
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {t(formError)}
          </Alert>
        )}
        {notice && (
          <Alert color="green" variant="light" role="status">
            {t(notice)}
          </Alert>
        )}
        <CodeBoxes
          value={code}
          error={codeError}
          onChange={(value) => {
            setCode(value);
            setCodeError(null);
          }}
          onComplete={(value) => void submit(undefined, value)}
        />
        <Button type="submit" size="md" loading={busy} disabled={code.length !== OTP_LENGTH} fullWidth>
          {t('loginpage.verify')}
        </Button>
        <Group justify="center" gap={4}>
          <Text size="sm" c="dimmed">
            {t('loginpage.no_code')}
          </Text>
          <Button variant="subtle" size="compact-sm" onClick={resend} loading={resending}>
            {t('loginpage.resend_code')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
