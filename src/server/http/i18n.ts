import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../common/languages.js';
import { lookupLocaleText, mergeLocaleFiles, type LocaleTree } from '../../common/locale-tree.js';
import { readLocaleFiles } from './locale-files.js';

/** One tree per language, merged once at start from every area's `locales/<area>/<language>.json`. */
export const LOCALES: Record<Language, LocaleTree> = mergeLocaleFiles(readLocaleFiles(), LANGUAGES);

/** Translates a locale key on the server, falling back to English and then to the key itself. */
export function translate(language: Language, key: string, params: Record<string, string | number> = {}): string {
  const text = lookupLocaleText(LOCALES[language], key) ?? lookupLocaleText(LOCALES[DEFAULT_LANGUAGE], key) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}
