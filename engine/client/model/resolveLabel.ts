import type { PageDefinition } from '../../schema/index.js';

type Translator = { t(key: string): string; hasText(key: string): boolean; language: string };

/**
 * The text of a label code (labels are locale keys or multilingual text
 * codes, never literal text): the page's own multilingual text in the user's language; else the
 * host's text of the code in that language (the install's multilingual texts, then the locale
 * files); else the page's own English text; the code itself when none knows it, so a missing text
 * is visible to the configurator instead of an empty label.
 */
export function resolveLabel(code: string, page: Pick<PageDefinition, 'texts'> | undefined, translator: Translator): string {
  const own = page?.texts?.[code] as Record<string, string | undefined> | undefined;
  const inLanguage = own?.[translator.language];
  if (inLanguage) return inLanguage;
  if (translator.hasText(code)) return translator.t(code);
  return own?.en ?? code;
}
