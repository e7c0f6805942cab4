import { ActionIcon, Menu } from '@mantine/core';
import type { ReactNode } from 'react';

/** The "⋯" menu at a row's end; `label` names it for screen readers ("Actions for …"). */
export function RowMenu({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={label}>
          ⋯
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
}
