import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useDocumentTitle } from '../lib/document-title.ts';
import { useTranslation } from '../lib/use-translation.ts';

/** The route's title and one-line description, with the page's primary action at the right. */
export function PageHeader({ titleKey, action }: { titleKey: string; action?: ReactNode }) {
  const { t } = useTranslation();
  // The route's title is also the browser tab's (the route table's key, in the admin's language).
  useDocumentTitle(t(titleKey));
  return (
    <Group justify="space-between" align="flex-start" mb="lg" wrap="wrap" gap="sm">
      <Stack gap={2}>
        <Title order={1} size="h2">
          {t(titleKey)}
        </Title>
        <Text c="dimmed" size="sm">
          {t(`${titleKey}.description`)}
        </Text>
      </Stack>
      {action}
    </Group>
  );
}
