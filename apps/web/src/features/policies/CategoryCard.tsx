import { type PolicyCategory, type PolicyDefinition, policyHelpKey, policyTitleKey } from '@latchkey/contracts/client';
import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Icon } from '../../components/Icon.tsx';
import { useTranslation } from '../../lib/use-translation.ts';
import { formatValue } from './format.ts';

/** One category of policies in a card; readonly policies show their fixed value. */
export function CategoryCard({
  category,
  readonlyDefs,
  children,
}: {
  category: PolicyCategory;
  readonlyDefs: PolicyDefinition[];
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="lg" data-testid={`policy-category-${category}`}>
      <Title order={2} size="h5" mb="xs">
        {t(`policy.category.${category}`)}
      </Title>
      <Stack gap={0}>
        {children}
        {readonlyDefs.map((def) => (
          <Group
            key={def.key}
            justify="space-between"
            wrap="wrap"
            py="sm"
            gap="sm"
            style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
          >
            <Stack gap={2} style={{ flex: '1 1 260px' }}>
              <Text fw={500} size="sm">
                {t(policyTitleKey(def.key))}
              </Text>
              <Text size="xs" c="dimmed">
                {t(policyHelpKey(def.key))}
              </Text>
            </Stack>
            <Badge variant="light" color="gray" leftSection={<Icon name="lock" size={12} />}>
              {formatValue(t, def.default)} · {t('policy.fixed')}
            </Badge>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
