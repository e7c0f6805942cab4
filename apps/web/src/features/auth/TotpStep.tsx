import { OTP_LENGTH } from '@latchkey/contracts/client';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, Redirect } from 'wouter';
import { ApiError, errorMessage } from '../../lib/api-error.ts';
import { completeSignIn } from '../../lib/auth.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { authApi } from './api.ts';
import { CodeBoxes } from './CodeBoxes.tsx';
import { useLoginState } from './login-state.ts';
import { StepHeader } from './StepHeader.tsx';

/** /login/verify-totp: six digits from the authenticator app, or a backup code instead (spec §2). */
export function TotpStep() {
  const { t } = useTranslation();
  const login = useLoginState();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!login.email || !login.password || login.tfa_type !== 'otp_totp') return <Redirect to="/login" replace />;

  async function submit(event?: FormEvent, value = code) {
    event?.preventDefault();
    if (value.length !== OTP_LENGTH || busy) return;
    setBusy(true);
    setFormError(null);
    setCodeError(null);
    try {
      const success = await authApi.verifyTotp({
        email: login.email,
        password: login.password,
        team_slug: login.team_slug,
        totp: value,
      });
      await completeSignIn(success, login.email);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'totp_invalid') setCodeError(errorMessage(error));
      else setFormError(errorMessage(error));
      setCode('');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <StepHeader titleKey="loginpage.authenticator_title" email={login.email} teamName={login.team_name} />
        <Text size="sm">{t('loginpage.authenticator_info')}</Text>
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {t(formError)}
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
        <Anchor component={Link} to="/login/verify-backup-code" size="sm" ta="center">
          {t('loginpage.use_backup_code')}
        </Anchor>
      </Stack>
    </form>
  );
}
