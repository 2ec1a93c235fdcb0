import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../common/languages';
import { mergeLocaleFiles, type LocaleTree } from '../common/locale-tree';
import { setApiLanguage } from './api/client';
import { applyDayjsLocale } from './locale';

// Every area's texts, locales/<area>/<language>.json: a new area needs only its folder.
const trees = mergeLocaleFiles(import.meta.glob<LocaleTree>('../../locales/*/*.json', { eager: true, import: 'default' }), LANGUAGES);

type Resources = Record<Language, { translation: LocaleTree }>;
export const resources = Object.fromEntries(LANGUAGES.map((language) => [language, { translation: trees[language] }])) as Resources;

const LANGUAGE_KEY = 'language';

export function storedLanguage(): Language {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  return (LANGUAGES as readonly string[]).includes(stored ?? '') ? (stored as Language) : DEFAULT_LANGUAGE;
}

export function rememberLanguage(language: Language): void {
  localStorage.setItem(LANGUAGE_KEY, language);
}

const initial = storedLanguage();
// Calls carry the language from the first one on, so that error texts come back in it.
setApiLanguage(initial);
applyDayjsLocale(initial);

void i18next.use(initReactI18next).init({
  resources,
  lng: initial,
  fallbackLng: DEFAULT_LANGUAGE,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export default i18next;
