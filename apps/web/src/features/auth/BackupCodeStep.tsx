import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, Redirect } from 'wouter';
import { ApiError, errorMessage } from '../../lib/api-error.ts';
import { completeSignIn, deviceInfo } from '../../lib/auth.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { authApi } from './api.ts';
import { useLoginState } from './login-state.ts';
import { StepHeader } from './StepHeader.tsx';

/** /login/verify-backup-code: one of the saved backup codes, trimmed and required (spec §2, §5). */
export function BackupCodeStep() {
  const { t } = useTranslation();
  const login = useLoginState();
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!login.email || !login.password || login.tfa_type !== 'otp_totp') return <Redirect to="/login" replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = code.trim();
    if (!value) {
      setFieldError('this field is required');
      return;
    }
    setBusy(true);
    setFormError(null);
    try {
      // Spec §7: verify/otp with recovery_code (the login state's recovery_code) instead of an emailed code.
      const success = await authApi.verifyOtp({
        email: login.email,
        password: login.password,
        team_slug: login.team_slug,
        recovery_code: value,
        device: deviceInfo(),
      });
      if ('code' in success) throw new Error('unexpected set_password_first');
      await completeSignIn(success, login.email);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'code_invalid') setFieldError(errorMessage(error));
      else setFormError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <StepHeader titleKey="loginpage.backup_code_title" email={login.email} teamName={login.team_name} />
        <Text size="sm">{t('loginpage.backup_code_info')}</Text>
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {t(formError)}
          </Alert>
        )}
        <TextInput
          label={t('loginpage.backup_code')}
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          maxLength={64}
          value={code}
          onChange={(e) => {
            setCode(e.currentTarget.value);
            setFieldError(null);
          }}
          error={fieldError ? t(fieldError) : undefined}
        />
        <Button type="submit" size="md" loading={busy} fullWidth>
          {t('loginpage.verify')}
        </Button>
        <Anchor component={Link} to="/login/verify-totp" size="sm" ta="center">
          {t('loginpage.use_authenticator')}
        </Anchor>
      </Stack>
    </form>
  );
}
