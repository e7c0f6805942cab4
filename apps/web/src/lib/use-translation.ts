import i18n from 'i18next';
import { useSyncExternalStore } from 'react';

function subscribe(listener: () => void): () => void {
  i18n.on('languageChanged', listener);
  return () => i18n.off('languageChanged', listener);
}

/**
 * The current `t`, re-rendering on language change. A few lines instead of react-i18next keeps
 * the sign-in page within its bundle budget.
 */
export function useTranslation() {
  const language = useSyncExternalStore(subscribe, () => i18n.language);
  return { t: i18n.t.bind(i18n), i18n, language };
}
