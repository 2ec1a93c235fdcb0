import { toLanguage, languageCode, type Language } from '../common/languages';
import { api, setApiLanguage } from './api/client';
import { getToken } from './api/token';
import i18next, { rememberLanguage } from './i18n';
import { LOCALES } from './locale';
import { updateSession } from './store/session-store';

/**
 * Switches the interface language everywhere: the language sent with each call, the page's
 * `lang` and the store's language code at once; texts, antd's locale (App.tsx) and dayjs as soon
 * as the language's texts have loaded (src/app/i18n.ts). Accepts a language name or its numeric
 * code (0 zh, 1 zh_tw, 2 en, 3 kor, 4 th, 5 jp).
 */
export function applyLanguage(value: number | string): Language | undefined {
  const language = toLanguage(value);
  if (!language) return undefined;
  rememberLanguage(language);
  setApiLanguage(language);
  document.documentElement.lang = LOCALES[language].tag;
  updateSession({ languageCode: languageCode(language) });
  void i18next.changeLanguage(language);
  return language;
}

/** The user's choice from the language menu: applied now and saved as the user's default. */
export async function chooseLanguage(value: number | string): Promise<void> {
  const language = applyLanguage(value);
  if (language && getToken()) await api('/user/defaultLang', { method: 'PUT', body: { language } });
}
