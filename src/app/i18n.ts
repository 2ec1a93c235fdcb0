import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../locales/en.json';
import zh from '../../locales/zh.json';
import zhTw from '../../locales/zh_tw.json';
import kor from '../../locales/kor.json';
import th from '../../locales/th.json';
import jp from '../../locales/jp.json';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../common/languages';
import { setApiLanguage } from './api/client';
import { applyDayjsLocale } from './locale';

export const resources = {
  en: { translation: en },
  zh: { translation: zh },
  zh_tw: { translation: zhTw },
  kor: { translation: kor },
  th: { translation: th },
  jp: { translation: jp },
} satisfies Record<Language, unknown>;

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
