import { Anchor, Group, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { browserPrefersEnglish } from '../lib/i18n.ts';
import { useTranslation } from '../lib/use-translation.ts';

// Most admins never see the picker (English browsers), so it loads only when shown.
const LanguageSelect = lazy(async () => ({ default: (await import('./LanguageSelect.tsx')).LanguageSelect }));

/** Copyright, privacy policy, and a language picker when the browser is not in English (spec §2). */
export function Footer() {
  const { t } = useTranslation();
  const showPicker = !browserPrefersEnglish();
  return (
    <Group component="footer" justify="space-between" px="md" py="sm" gap="xs" wrap="wrap">
      <Group gap="md">
        <Text size="xs" c="dimmed">
          {t('footer.copyright', { year: new Date().getFullYear() })}
        </Text>
        <Anchor size="xs" href="./privacy.html" target="_blank" rel="noopener">
          {t('footer.privacy_policy')}
        </Anchor>
      </Group>
      {showPicker && (
        <Suspense fallback={null}>
          <LanguageSelect />
        </Suspense>
      )}
    </Group>
  );
}
