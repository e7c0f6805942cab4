import { Card, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One titled card of a settings screen: a title, an optional action beside it, then its content. */
export function SectionCard({
  title,
  action,
  children,
  testId,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Card withBorder radius="md" padding="lg" data-testid={testId}>
      <Stack gap="md">
        <Group justify="space-between" gap="sm">
          <Title order={3} size="h4">
            {title}
          </Title>
          {action}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}
