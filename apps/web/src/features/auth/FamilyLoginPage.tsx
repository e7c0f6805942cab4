import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { ApiError, errorMessage } from '../../lib/api-error.ts';
import { completeSignIn, deviceInfo, logout } from '../../lib/auth.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { authApi } from './api.ts';

/**
 * family/{token} (spec §4 family app login): the family app opens the console with a one-time
 * token, checked with 'Authorization: Basic {token}'. A 401 logs out with app_initiated_login_failed
 * (spec §8), which the login page shows as 'authentication failed'.
 */
export function FamilyLoginPage({ token }: { token: string }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    authApi
      .appLoginVerify({ device: deviceInfo() }, token)
      .then((success) => completeSignIn(success, success.email))
      .catch((e: unknown) => {
        if (e instanceof ApiError && e.status === 401) logout('app_initiated_login_failed');
        else setError(errorMessage(e));
      });
  }, [token]);

  if (error)
    return (
      <Stack gap="md">
        <Alert color="red" variant="light" role="alert">
          {t(error)}
        </Alert>
        <Button component={Link} to="/login" size="md" fullWidth>
          {t('loginpage.back_to_login')}
        </Button>
      </Stack>
    );
  return (
    <Stack align="center" py="lg" gap="sm" aria-busy="true" data-testid="family-verifying">
      <Loader size="sm" />
      <Text size="sm" c="dimmed">
        {t('loginpage.signing_in')}
      </Text>
    </Stack>
  );
}
