import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { useTranslation } from '../../lib/use-translation.ts';
import { resetLoginState } from './login-state.ts';

/** A step's title with the email and team being signed in, and a way back to change them. */
export function StepHeader({ titleKey, email, teamName }: { titleKey: string; email: string; teamName: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Title order={2} size="h3">
        {t(titleKey)}
      </Title>
      <Group gap={6} wrap="nowrap">
        <Text size="sm" c="dimmed" truncate="end" data-testid="login-email">
          {email}
          {teamName ? ` · ${teamName}` : ''}
        </Text>
        <Anchor component={Link} to="/login" size="sm" onClick={() => resetLoginState()} style={{ flexShrink: 0 }}>
          {t('loginpage.change_email')}
        </Anchor>
      </Group>
    </Stack>
  );
}
