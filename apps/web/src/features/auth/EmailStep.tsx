import { emailProblem } from '@latchkey/contracts/client';
import { Alert, Button, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { useLocation } from 'wouter';
import { ApiError, errorMessage } from '../../lib/api-error.ts';
import { deviceInfo } from '../../lib/auth.ts';
import { EMAIL_MAX, limitProps, trimPasted } from '../../lib/limits.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { authApi } from './api.ts';
import { LogoutNotice } from './LogoutNotice.tsx';
import { getLoginState, resetLoginState, updateLoginState } from './login-state.ts';
import { startSso } from './sso.ts';

const TeamChoice = lazy(async () => ({ default: (await import('./TeamChoice.tsx')).TeamChoice }));

/** /login: the email, and the team when the email administers several (spec §2, §4). */
export function EmailStep() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [email, setEmail] = useState(getLoginState().email);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [teams, setTeams] = useState<{ team_slug: string; team_name: string }[]>(getLoginState().teams);
  const [teamSlug, setTeamSlug] = useState<string>(getLoginState().team_slug);
  const [busy, setBusy] = useState(false);

  const validate = (value: string) => {
    const problem = emailProblem(value);
    setFieldError(problem);
    return problem ? null : value.trim().toLowerCase();
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const valid = validate(email);
    if (!valid) return;
    if (teams.length > 0 && !teamSlug) return;
    setBusy(true);
    setFormError(null);
    try {
      const reply = await authApi.login({ email: valid, team_slug: teamSlug || undefined, device: deviceInfo() });
      if (reply.code === 'select_team') {
        resetLoginState({ email: valid, teams: reply.teams });
        setTeams(reply.teams);
        return;
      }
      if (reply.code === 'onboarding_otp_sent') return;
      const team = { email: valid, team_slug: reply.team_slug, team_name: reply.team_name };
      const sso_configurations = reply.sso_configurations ?? [];
      if (reply.code === 'signin_with_sso_or_otp') {
        updateLoginState({ ...team, auth: 'default', sso_configurations });
        navigate('/login/sso-otp-choice');
        return;
      }
      if (reply.code === 'sso_enforced') {
        updateLoginState({ ...team, sso_configurations });
        // The team signs in with SSO only: straight to the identity provider (spec §4).
        await startSso({ ...team, sso_configurations });
        return;
      }
      updateLoginState({
        ...team,
        auth: reply.auth_type === 'password' ? 'password' : 'default',
        tfa_type: reply.otp_sent ? 'otp_email' : null,
        otp_sent: reply.otp_sent,
        sso_configurations,
      });
      navigate(reply.auth_type === 'password' ? '/login/verify-password' : '/login/verify-otp');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'admin_not_found') {
        updateLoginState({ email: valid });
        navigate('/login/no-admin-found');
      } else if (error instanceof ApiError && error.code === 'email_notregistered') setFieldError(errorMessage(error));
      else setFormError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  const chooseAnother = () => {
    setTeams([]);
    setTeamSlug('');
    resetLoginState();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <LogoutNotice />
        <Title order={2} size="h3">
          {t('loginpage.sign_in')}
        </Title>
        {formError && (
          <Alert color="red" variant="light" role="alert">
            {t(formError)}
          </Alert>
        )}
        <TextInput
          {...limitProps(EMAIL_MAX, trimPasted)}
          label={t('loginpage.email')}
          type="email"
          autoComplete="username"
          autoFocus
          value={email}
          readOnly={teams.length > 0}
          onChange={(e) => setEmail(e.currentTarget.value)}
          onBlur={() => email && validate(email)}
          error={fieldError ? t(fieldError) : undefined}
        />
        {teams.length > 0 && (
          <Suspense fallback={<Skeleton h={80} />}>
            <TeamChoice teams={teams} value={teamSlug} onChange={setTeamSlug} />
          </Suspense>
        )}
        <Button type="submit" size="md" loading={busy} disabled={teams.length > 0 && !teamSlug} fullWidth>
          {t('common.continue')}
        </Button>
        {teams.length > 0 && (
          <Button variant="subtle" size="sm" onClick={chooseAnother}>
            {t('loginpage.change_email')}
          </Button>
        )}
        <Text size="xs" c="dimmed" ta="center">
          {t('loginpage.admins_only')}
        </Text>
      </Stack>
    </form>
  );
}
