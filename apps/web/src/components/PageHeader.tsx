import { Anchor, Box, Group, Stack, Text, Title } from '@mantine/core';
import { createContext, type ReactNode, useContext, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'wouter';
import { useDocumentTitle } from '../lib/document-title.ts';
import { useTranslation } from '../lib/use-translation.ts';
import { Icon } from './Icon.tsx';
import './PageHeader.css';

/** Where a screen's primary action goes: the header's right side, drawn by the layout. */
const ActionSlot = createContext<HTMLElement | null>(null);

/** The way up to the parent screen: its path and the parent route's title key. */
export interface BackLink {
  href: string;
  titleKey: string;
}

/**
 * The one page header (UI.md "One look on every screen"): the back link above the title, the
 * title and its one-line description, and the page's primary action at the title's right (under
 * the description, full width, on a phone). Screens put their action in with `PageAction`.
 */
export function PageHeader({ titleKey, back, children }: { titleKey: string; back?: BackLink; children: ReactNode }) {
  const { t } = useTranslation();
  // The route's title is also the browser tab's (the route table's key, in the admin's language).
  useDocumentTitle(t(titleKey));
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  return (
    <>
      <Stack gap={4} mb="lg" data-testid="page-header">
        {back && (
          <Anchor component={Link} href={back.href} size="sm" w="fit-content" data-testid="page-back">
            <Group gap={4} component="span" wrap="nowrap">
              <Icon name="back" size={14} />
              {t('page.back_to', { page: t(back.titleKey) })}
            </Group>
          </Anchor>
        )}
        <div className="page-header-row">
          <Stack gap={2} miw={0}>
            <Title order={1} size="h2">
              {t(titleKey)}
            </Title>
            <Text c="dimmed" size="sm">
              {t(`${titleKey}.description`)}
            </Text>
          </Stack>
          <Box ref={setSlot} className="page-header-action" data-testid="page-action" />
        </div>
      </Stack>
      <ActionSlot.Provider value={slot}>{children}</ActionSlot.Provider>
    </>
  );
}

/** The screen's primary action (one button, or a few side by side), shown in the page header. */
export function PageAction({ children }: { children: ReactNode }) {
  const slot = useContext(ActionSlot);
  return slot ? createPortal(children, slot) : null;
}
