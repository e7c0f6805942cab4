import { Card, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A dashboard card: a titled, bordered box filling its grid cell. */
export function DashCard({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <Card withBorder radius="md" padding="lg" h="100%" data-testid={testId}>
      <Title order={2} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}
