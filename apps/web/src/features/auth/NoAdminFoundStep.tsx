import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { useTranslation } from '../../lib/use-translation.ts';
import { resetLoginState, useLoginState } from './login-state.ts';

/** /login/no-admin-found: the email is not an administrator (of that team, when one was named). */
export function NoAdminFoundStep() {
  const { t } = useTranslation();
  const login = useLoginState();
  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        {t('loginpage.no_admin_title')}
      </Title>
      <Text size="sm" data-testid="no-admin-message">
        {login.team_name ? t('loginpage.no_admin_info', { team: login.team_name }) : t('loginpage.no_admin_team')}
      </Text>
      <Button component={Link} to="/login" size="md" fullWidth onClick={() => resetLoginState()}>
        {t('loginpage.back_to_login')}
      </Button>
    </Stack>
  );
}
