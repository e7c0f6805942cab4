import { Alert, Anchor, Button, Divider, PasswordInput, Stack } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, Redirect, useLocation } from 'wouter';
import { ApiError, errorMessage } from '../../lib/api-error.ts';
import { limitProps, PASSWORD_MAX } from '../../lib/limits.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { authApi } from './api.ts';
import { updateLoginState, useLoginState } from './login-state.ts';
import { hasSsoCallback, SsoReturnPage } from './SsoReturnPage.tsx';
import { StepHeader } from './StepHeader.tsx';
import { startSso } from './sso.ts';

/** /login/verify-password: the password, then the emailed code (spec §4). */
export function PasswordStep() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const login = useLoginState();
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [ssoBusy, setSsoBusy] = useState(false);
  const [ssoCallback] = useState(hasSsoCallback);
  // An identity provider returning here finishes the SSO sign-in (or shows its error) like /sso does.
  if (ssoCallback) return <SsoReturnPage />;
  if (!login.email || !login.team_slug) return <Redirect to="/login" replace />;

  // spec §2: the password page offers SSO when the team has it.
  async function withSso() {
    setSsoBusy(true);
    setFormError(null);
    try {
      await startSso(login);
    } catch (error) {
      setFormError(errorMessage(error));
    } finally {
      setSsoBusy(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setFieldError('please enter your password');
      return;
    }
    setBusy(true);
    setFormError(null);
    try {
      const reply = await authApi.verifyPassword({ email: login.email, password, team_slug: login.team_slug });
      const next = {
        otp_sent: { tfa: 'otp_email', path: '/login/verify-otp' },
        totp_required: { tfa: 'otp_totp', path: '/login/verify-totp' },
        u2f_required: { tfa: 'u2f', path: '/login/u2f' },
      } as const;
      updateLoginState({ password, tfa_type: next[reply.code].tfa, otp_sent: reply.code === 'otp_sent' });
      navigate(next[reply.code].path);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'password_invalid') setFieldError(errorMessage(error));
      else setFormError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <StepHeader titleKey="loginpage.enter_password" email={login.email} teamName={login.team_name} />
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {t(formError)}
          </Alert>
        )}
        {/* Lets password managers pair the password with the account. */}
        <input type="email" name="username" autoComplete="username" value={login.email} readOnly hidden />
        <PasswordInput
          {...limitProps(PASSWORD_MAX)}
          label={t('loginpage.password')}
          autoComplete="current-password"
          autoFocus
          value={password}
          onChange={(e) => {
            setPassword(e.currentTarget.value);
            setFieldError(null);
          }}
          error={fieldError ? t(fieldError) : undefined}
        />
        <Button type="submit" size="md" loading={busy} fullWidth>
          {t('common.continue')}
        </Button>
        <Anchor component={Link} to="/login/forgot-password" size="sm" ta="center">
          {t('loginpage.forgot_password')}
        </Anchor>
        {login.sso_configurations.length > 0 && (
          <>
            <Divider label={t('loginpage.or')} labelPosition="center" />
            <Button variant="default" size="md" fullWidth loading={ssoBusy} onClick={withSso}>
              {t('Sign In With SSO')}
            </Button>
          </>
        )}
      </Stack>
    </form>
  );
}
