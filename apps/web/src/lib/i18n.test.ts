import i18n from 'i18next';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { browserPrefersEnglish, setupI18n } from './i18n.ts';

// Spec §1: default English plus the browser's language when supported; a regional variant falls
// back to its base language, then English. Spec §2: the footer's picker whenever the browser is not English.

function browserLanguages(languages: string[]) {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(languages[0] ?? '');
}

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('interface language from the browser', () => {
  test('a language the console does not ship (Swahili): English, and the picker is offered', async () => {
    browserLanguages(['sw-KE', 'sw']);
    await setupI18n();
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(browserPrefersEnglish()).toBe(false);
  });

  test('a shipped language is the default; a regional variant it does not ship takes its base', async () => {
    browserLanguages(['de-AT', 'en']);
    await setupI18n();
    expect(i18n.language).toBe('de');
    expect(i18n.t('footer.privacy_policy')).not.toBe('Privacy policy');
    expect(browserPrefersEnglish()).toBe(false);
  });

  test('the first supported language of the list wins; an English browser gets no picker', async () => {
    browserLanguages(['sw', 'fr-CA', 'de']);
    await setupI18n();
    expect(i18n.language).toBe('fr');
    browserLanguages(['en-GB', 'de']);
    expect(browserPrefersEnglish()).toBe(true);
  });

  test('a remembered choice wins over the browser', async () => {
    browserLanguages(['de']);
    localStorage.setItem('latchkey.language', 'ja');
    await setupI18n();
    expect(i18n.language).toBe('ja');
  });

  test('the fallback chain: a regional locale, then its base, then English', async () => {
    browserLanguages(['pt-BR']);
    await setupI18n();
    expect(i18n.language).toBe('pt-BR');
    expect(i18n.services.languageUtils.toResolveHierarchy('pt-BR')).toEqual(['pt-BR', 'pt', 'en']);
    expect(i18n.services.languageUtils.toResolveHierarchy('de')).toEqual(['de', 'en']);
    // A key only English has (a bundle without it) is read in English.
    i18n.addResource('en', 'translation', 'test.only_in_english', 'Only in English');
    expect(i18n.t('test.only_in_english')).toBe('Only in English');
  });
});
