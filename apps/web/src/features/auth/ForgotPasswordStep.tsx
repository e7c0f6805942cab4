import { emailProblem, SUPPORT_EMAIL } from '@latchkey/contracts/client';
import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { errorMessage } from '../../lib/api-error.ts';
import { EMAIL_MAX, limitProps, trimPasted } from '../../lib/limits.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { authApi } from './api.ts';
import { useLoginState } from './login-state.ts';

/**
 * /login/forgot-password (spec §2): a single-use link by email to set a new password, the way back
 * to sign in, and support for whoever no longer reads that mailbox.
 */
export function ForgotPasswordStep() {
  const { t } = useTranslation();
  const login = useLoginState();
  const [email, setEmail] = useState(login.email);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = emailProblem(email);
    if (problem) return setFieldError(problem);
    setBusy(true);
    setFormError(null);
    try {
      await authApi.passwordResetRequest({ email: email.trim() });
      setSentTo(email.trim());
    } catch (error) {
      setFormError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        {t('loginpage.forgot_password_title')}
      </Title>
      <Text size="sm">{t('loginpage.forgot_password_info')}</Text>
      {formError && (
        <Alert color="red" variant="light" role="alert">
          {t(formError)}
        </Alert>
      )}
      {sentTo ? (
        <Alert color="green" variant="light" role="status" data-testid="reset-link-sent">
          {t('loginpage.reset_link_sent', { email: sentTo })}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <TextInput
              {...limitProps(EMAIL_MAX, trimPasted)}
              label={t('loginpage.email')}
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => {
                setEmail(e.currentTarget.value);
                setFieldError(null);
              }}
              error={fieldError ? t(fieldError) : undefined}
            />
            <Button type="submit" size="md" loading={busy} fullWidth>
              {t('loginpage.send_reset_link')}
            </Button>
          </Stack>
        </form>
      )}
      <Button component={Link} to="/login" variant="default" size="md" fullWidth>
        {t('loginpage.back_to_login')}
      </Button>
      <Button component="a" href={`mailto:${SUPPORT_EMAIL}`} variant="subtle" size="md" fullWidth>
        {t('loginpage.contact_support')}
      </Button>
    </Stack>
  );
}
