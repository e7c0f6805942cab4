import { ActionIcon, Menu } from '@mantine/core';
import type { ReactNode } from 'react';

/** The "⋯" menu at a row's end; `label` names it for screen readers ("Actions for …"). */
export function RowMenu({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={label} data-testid={testId}>
          ⋯
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
}
