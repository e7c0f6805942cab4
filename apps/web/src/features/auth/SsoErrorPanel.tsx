import { ssoErrorKey } from '@latchkey/contracts/client';
import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'wouter';
import { Icon } from '../../components/Icon.tsx';
import { useTranslation } from '../../lib/use-translation.ts';
import { resetLoginState } from './login-state.ts';

/** The SSO error page (spec §8): 'Error: {code}', what it means, the hint, and the way back. */
export function SsoErrorPanel({ code }: { code: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" align="stretch" data-testid="sso-error">
      <ThemeIcon color="red" variant="light" size={44} radius="xl" style={{ alignSelf: 'center' }}>
        <Icon name="alert" size={24} />
      </ThemeIcon>
      <Title order={2} size="h3" ta="center">
        {t('sso.error_code', { code })}
      </Title>
      <Text size="sm" ta="center" data-testid="sso-error-text">
        {t(ssoErrorKey(code))}
      </Text>
      <Text size="sm" c="dimmed" ta="center">
        {t('sso_fail_solution')}
      </Text>
      <Button component={Link} to="/login" size="md" fullWidth onClick={() => resetLoginState()}>
        {t('loginpage.back_to_login')}
      </Button>
    </Stack>
  );
}
