import { canAccess, RULES } from '@latchkey/contracts/client';
import { Button, Card, SimpleGrid, Text } from '@mantine/core';
import { Link } from 'wouter';
import { useConsoleContext } from '../../lib/console-context.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useAuthTypeQuery } from './api.ts';

/** Set-password card (account type default: no password yet) and the organisation policy card. */
export function ShortcutCards() {
  const { t } = useTranslation();
  const { ctx } = useConsoleContext();
  const auth = useAuthTypeQuery();
  const showPassword = auth.data ? !auth.data.has_password : false;
  const showPolicy = canAccess(RULES.policies, ctx);
  // Both cards at once, when the account type is known: the set-password card arriving later
  // would move the policy card aside (a layout shift).
  if (auth.isPending || (!showPassword && !showPolicy)) return null;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      {showPassword && (
        <Card withBorder radius="md" padding="lg" data-testid="set-password-card">
          <Text fw={600}>{t('dashboard.set_password_title')}</Text>
          <Text size="sm" c="dimmed" mt={4} mb="md">
            {t('dashboard.set_password_body')}
          </Text>
          <Button component={Link} href="/settings/account-security" variant="light" w="fit-content">
            {t('dashboard.set_password_action')}
          </Button>
        </Card>
      )}
      {showPolicy && (
        <Card withBorder radius="md" padding="lg" data-testid="policy-card">
          <Text fw={600}>{t('dashboard.policy_title')}</Text>
          <Text size="sm" c="dimmed" mt={4} mb="md">
            {t('dashboard.policy_body')}
          </Text>
          <Button component={Link} href="/policies" variant="light" w="fit-content">
            {t('dashboard.policy_action')}
          </Button>
        </Card>
      )}
    </SimpleGrid>
  );
}
