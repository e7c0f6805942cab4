import { accessDenial } from '@latchkey/contracts/client';
import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { Link } from 'wouter';
import { Icon, type IconName } from '../../components/Icon.tsx';
import { useConsoleContext } from '../../lib/console-context.ts';
import { useTranslation } from '../../lib/use-translation.ts';

const ICONS: Record<string, IconName> = {
  'settings/account-security': 'lock',
  'settings/manage-administrators': 'users',
  'settings/approvals': 'clock',
  'settings/organization-branding': 'dashboard',
  'settings/sso-connector': 'integration',
  'settings/scim-connectors': 'groups',
  'settings/directory-sync': 'users',
  'settings/recovery': 'recovery',
  'settings/eventlogs': 'eventlogs',
  'settings/family-plan': 'family',
};

/**
 * /settings: a card for each settings screen this admin may open — the route table's own access
 * rules decide (role, team type, plan, service), never a list kept by hand.
 */
export function SettingsIndex() {
  const { t } = useTranslation();
  const { ctx, settingsRoutes } = useConsoleContext();
  const open = settingsRoutes.filter((route) => accessDenial(route.rule, ctx) === null);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="settings-index">
      {open.map((route) => (
        <Card
          key={route.path}
          component={Link}
          href={`/${route.path}`}
          withBorder
          radius="md"
          padding="lg"
          data-testid={`settings-card-${route.path.slice('settings/'.length)}`}
          style={{ textDecoration: 'none', color: 'inherit' }}
        >
          <Group wrap="nowrap" align="flex-start" gap="md">
            <ThemeIcon variant="light" size={40} radius="md">
              <Icon name={ICONS[route.path] ?? 'settings'} />
            </ThemeIcon>
            <Stack gap={4}>
              <Text fw={600}>{t(route.titleKey)}</Text>
              <Text size="sm" c="dimmed">
                {t(`${route.titleKey}.description`)}
              </Text>
            </Stack>
          </Group>
        </Card>
      ))}
    </SimpleGrid>
  );
}
