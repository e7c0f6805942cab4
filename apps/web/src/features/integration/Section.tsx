import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

export const Hint = ({ children }: { children: ReactNode }) => (
  <Text size="sm" c="dimmed">
    {children}
  </Text>
);
