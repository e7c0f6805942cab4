import { LOCALE_NAMES, LOCALES, type Locale } from '@latchkey/contracts/client';
import { NativeSelect } from '@mantine/core';
import { changeLanguage, currentLocale } from '../lib/i18n.ts';
import { useTranslation } from '../lib/use-translation.ts';

const OPTIONS = LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES[l] }));

/** Every interface language by its own name; the choice is remembered. */
export function LanguageSelect({ size = 'xs' }: { size?: 'xs' | 'sm' | 'md' }) {
  const { t, i18n } = useTranslation();
  return (
    <NativeSelect
      key={i18n.language}
      size={size}
      aria-label={t('language.choose')}
      data={OPTIONS}
      defaultValue={currentLocale()}
      onChange={(e) => void changeLanguage(e.currentTarget.value as Locale)}
    />
  );
}
