import { LOCALES, type Locale, matchLocale, RTL_LOCALES } from '@latchkey/contracts/client';
import i18n from 'i18next';

const STORAGE_KEY = 'latchkey.language';

// Every locale is its own chunk: English (the fallback) at start, the others when chosen.
const loaders = import.meta.glob<{ default: Record<string, string> }>('../locales/*.json');

/** The browser's preferred supported language, if any. */
export const browserLocale = (): Locale | undefined =>
  navigator.languages.map(matchLocale).find((l): l is Locale => l !== undefined);

/**
 * Whether the browser's own first language is English. Spec §2: the footer's language picker
 * shows whenever it is not, also for a language the console does not ship (Swahili reads English).
 */
export const browserPrefersEnglish = (): boolean =>
  (navigator.languages[0] ?? navigator.language ?? 'en').split('-')[0]?.toLowerCase() === 'en';

async function loadLocale(lng: Locale): Promise<void> {
  if (i18n.hasResourceBundle(lng, 'translation')) return;
  const base = lng.split('-')[0] as Locale;
  for (const code of base !== lng && LOCALES.includes(base) ? [base, lng] : [lng]) {
    const loader = loaders[`../locales/${code}.json`];
    if (loader) i18n.addResourceBundle(code, 'translation', (await loader()).default, true, true);
  }
}

export async function setupI18n(): Promise<typeof i18n> {
  const saved = localStorage.getItem(STORAGE_KEY) as Locale | null;
  const lng = saved && LOCALES.includes(saved) ? saved : (browserLocale() ?? 'en');
  await i18n.init({
    lng: 'en',
    partialBundledLanguages: true,
    resources: {},
    supportedLngs: [...LOCALES],
    // Regional variants fall back to their base language, then to English.
    fallbackLng: (code: string) => (code.includes('-') ? [code.split('-')[0] as string, 'en'] : ['en']),
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnEmptyString: false,
  });
  await loadLocale('en');
  await changeLanguage(lng, false);
  return i18n;
}

export async function changeLanguage(lng: Locale, remember = true): Promise<void> {
  await loadLocale(lng);
  await i18n.changeLanguage(lng);
  document.documentElement.lang = lng;
  document.documentElement.dir = RTL_LOCALES.includes(lng) ? 'rtl' : 'ltr';
  if (remember) localStorage.setItem(STORAGE_KEY, lng);
}

export const currentLocale = (): Locale => (LOCALES.find((l) => l === i18n.language) ?? 'en') as Locale;
