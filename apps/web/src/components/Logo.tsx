import { Group, Text } from '@mantine/core';

/** The Latchkey mark and word. */
export function Logo({ size = 28, withText = true }: { size?: number; withText?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="7" fill="var(--mantine-color-indigo-7)" />
        <circle cx="13" cy="16" r="6" fill="none" stroke="#fff" strokeWidth="3" />
        <path d="M18 16h9v4M24 16v3" stroke="#fff" strokeWidth="3" fill="none" strokeLinecap="round" />
      </svg>
      {withText && (
        <Text fw={700} fz={size * 0.6} lh={1}>
          Latchkey
        </Text>
      )}
    </Group>
  );
}
