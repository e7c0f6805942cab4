import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { ApiError, errorMessage } from '../../lib/api-error.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { authApi } from './api.ts';
import { CheckingLink, InvalidLink } from './LinkStates.tsx';

type State =
  | { step: 'checking' }
  | { step: 'invalid' }
  | { step: 'ready'; email: string; team_name: string; scopes: string[] }
  | { step: 'accepted'; team_name: string };

/**
 * An administrator invitation's link (security finding 3): a person who already has an account
 * administers another team only once they accept here. Accepting is a click, not automatic: mail
 * scanners that open links must not accept for them. It does not sign in; they sign in as usual.
 */
export function AdminInvitationPage({ token }: { token: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ step: 'checking' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    authApi
      .adminInvitation({ token })
      .then((reply) => setState({ step: 'ready', ...reply }))
      .catch(() => setState({ step: 'invalid' }));
  }, [token]);

  async function accept() {
    setBusy(true);
    setError(null);
    try {
      const reply = await authApi.adminInvitationAccept({ token });
      setState({ step: 'accepted', team_name: reply.team_name });
    } catch (e) {
      if (e instanceof ApiError && e.code === 'invalid_link') setState({ step: 'invalid' });
      else setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  if (state.step === 'checking') return <CheckingLink />;
  if (state.step === 'invalid') return <InvalidLink testId="admin-invitation-invalid" bodyKey="admininvite.invalid_body" />;
  if (state.step === 'accepted')
    return (
      <Stack gap="md" data-testid="admin-invitation-accepted">
        <Title order={2} size="h3">
          {t('admininvite.title')}
        </Title>
        <Text size="sm">{t('admininvite.accepted', { team: state.team_name })}</Text>
        <Button component={Link} to="/login" size="md" fullWidth>
          {t('loginpage.back_to_login')}
        </Button>
      </Stack>
    );
  return (
    <Stack gap="md" data-testid="admin-invitation-ready">
      <Title order={2} size="h3">
        {t('admininvite.title')}
      </Title>
      <Text size="sm">
        {t('admininvite.body', {
          email: state.email,
          team: state.team_name,
          scopes: state.scopes.map((s) => t(`admins.scope.${s}`)).join(', '),
        })}
      </Text>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {t(error)}
        </Alert>
      )}
      <Button size="md" fullWidth loading={busy} onClick={accept}>
        {t('admininvite.accept')}
      </Button>
    </Stack>
  );
}
