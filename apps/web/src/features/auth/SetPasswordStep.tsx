import { type NewPasswordProblem, newPasswordProblem } from '@latchkey/contracts/client';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Redirect } from 'wouter';
import { NewPasswordFields } from '../../components/NewPasswordFields.tsx';
import { errorMessage } from '../../lib/api-error.ts';
import { completeSignIn } from '../../lib/auth.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { authApi } from './api.ts';
import { useLoginState } from './login-state.ts';
import { StepHeader } from './StepHeader.tsx';

/** /login/set-password: a new admin's first password, after set_password_first; success signs in (spec §2, §4). */
export function SetPasswordStep() {
  const { t } = useTranslation();
  const login = useLoginState();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [fieldError, setFieldError] = useState<NewPasswordProblem | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!login.email || !login.set_auth_token) return <Redirect to="/login" replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = newPasswordProblem(password, again);
    setFieldError(problem);
    if (problem) return;
    setBusy(true);
    setFormError(null);
    try {
      const success = await authApi.setPasswordFirstLogin({
        email: login.email,
        team_slug: login.team_slug,
        token: login.set_auth_token,
        password,
        confirm_password: again,
      });
      await completeSignIn(success, login.email);
    } catch (error) {
      setFormError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }
  const err = (f: 'password' | 'again') => (fieldError?.field === f ? t(fieldError.key) : undefined);

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <StepHeader titleKey="setpassword.title" email={login.email} teamName={login.team_name} />
        <Text size="sm">{t('setpassword.info')}</Text>
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {t(formError)}
          </Alert>
        )}
        <input type="email" name="username" autoComplete="username" value={login.email} readOnly hidden />
        <NewPasswordFields
          autoFocus
          password={password}
          again={again}
          onPassword={setPassword}
          onAgain={setAgain}
          passwordError={err('password')}
          againError={err('again')}
        />
        <Button type="submit" size="md" loading={busy} fullWidth>
          {t('account.set_password')}
        </Button>
      </Stack>
    </form>
  );
}
