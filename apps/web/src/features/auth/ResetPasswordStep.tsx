import { type NewPasswordProblem, newPasswordProblem } from '@latchkey/contracts/client';
import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { NewPasswordFields } from '../../components/NewPasswordFields.tsx';
import { ApiError, errorMessage } from '../../lib/api-error.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { authApi } from './api.ts';
import { CheckingLink, InvalidLink } from './LinkStates.tsx';

/** The password_request of the link: in the hash's query (`#/reset-password?password_request=…`) or the page's. */
function tokenFromUrl(): string {
  const inHash = window.location.hash.split('?')[1] ?? '';
  return (
    new URLSearchParams(inHash).get('password_request') ??
    new URLSearchParams(window.location.search).get('password_request') ??
    ''
  );
}

type State = { step: 'checking' } | { step: 'invalid' } | { step: 'form'; email: string } | { step: 'done' };

/**
 * /reset-password?password_request=… (spec §4 Password reset): validate the link, set the new
 * password, then success or the invalid/expired-link state.
 */
export function ResetPasswordStep() {
  const { t } = useTranslation();
  const [token] = useState(tokenFromUrl);
  const [state, setState] = useState<State>({ step: 'checking' });
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [fieldError, setFieldError] = useState<NewPasswordProblem | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    // The link is a secret: keep it out of the address bar and history once read.
    if (window.location.hash.includes('?')) window.history.replaceState(null, '', '#/reset-password');
    if (!token) return setState({ step: 'invalid' });
    authApi
      .validatePasswordRequest({ password_request: token })
      .then((reply) => setState({ step: 'form', email: reply.email }))
      .catch(() => setState({ step: 'invalid' }));
  }, [token]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = newPasswordProblem(password, again);
    setFieldError(problem);
    if (problem) return;
    setBusy(true);
    setFormError(null);
    try {
      // Spec §7: the link's token travels in the Basic header (and in the body, as the spec lists it).
      await authApi.changePasswordRequest({ password_request: token, password, confirm_password: again }, token);
      setState({ step: 'done' });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'invalid_link') setState({ step: 'invalid' });
      else setFormError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  if (state.step === 'checking') return <CheckingLink />;
  if (state.step === 'invalid')
    return (
      <InvalidLink testId="reset-invalid" bodyKey="resetpage.invalid_body">
        <Button component={Link} to="/login/forgot-password" size="md" fullWidth>
          {t('resetpage.new_link')}
        </Button>
      </InvalidLink>
    );
  if (state.step === 'done')
    return (
      <Stack gap="md" data-testid="reset-done">
        <Title order={2} size="h3">
          {t('resetpage.done_title')}
        </Title>
        <Text size="sm">{t('resetpage.done_body')}</Text>
        <Button component={Link} to="/login" size="md" fullWidth>
          {t('loginpage.back_to_login')}
        </Button>
      </Stack>
    );
  const err = (f: 'password' | 'again') => (fieldError?.field === f ? t(fieldError.key) : undefined);
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h3">
            {t('resetpage.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('resetpage.for', { email: state.email })}
          </Text>
        </Stack>
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {t(formError)}
          </Alert>
        )}
        <input type="email" name="username" autoComplete="username" value={state.email} readOnly hidden />
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
          {t('resetpage.submit')}
        </Button>
      </Stack>
    </form>
  );
}
