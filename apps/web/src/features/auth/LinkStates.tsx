import { Button, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useTranslation } from '../../lib/use-translation.ts';

/** While an emailed link (reset, invitation) is being checked. */
export function CheckingLink() {
  return (
    <Stack align="center" py="lg" aria-busy="true">
      <Loader size="sm" />
    </Stack>
  );
}

/** An emailed link that is used, expired or broken: what to do next, then back to sign-in. */
export function InvalidLink({ testId, bodyKey, children }: { testId: string; bodyKey: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" data-testid={testId}>
      <Title order={2} size="h3">
        {t('invalid or expired link')}
      </Title>
      <Text size="sm">{t(bodyKey)}</Text>
      {children}
      <Button component={Link} to="/login" variant={children ? 'default' : 'filled'} size="md" fullWidth>
        {t('loginpage.back_to_login')}
      </Button>
    </Stack>
  );
}
