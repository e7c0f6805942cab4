import type { PlanType } from '@latchkey/contracts/client';
import { Card, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One card of the billing page, titled as the page's second-level heading, with an optional action beside the title. */
export function Section({
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
      <Group justify="space-between" mb="md" gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Card>
  );
}

/** A labelled figure of a card: the label small and upper-case above the value, and a word on it below when it needs one. */
export function Fact({ label, children, testId, hint }: { label: string; children: ReactNode; testId?: string; hint?: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" fw={500} component="div" data-testid={testId}>
        {children}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed" data-testid={testId ? `${testId}-hint` : undefined}>
          {hint}
        </Text>
      )}
    </Stack>
  );
}

export const planLabel = (t: (k: string) => string, plan: PlanType) => t(`billing.plan.${plan}`);
export const frequencyLabel = (t: (k: string) => string, f: string) => t(f === '1' ? 'billing.monthly' : 'billing.yearly');
