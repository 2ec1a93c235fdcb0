import type { PageDefinition } from '../../schema/index.js';

type Translator = { t(key: string): string; hasText(key: string): boolean; language: string };

/**
 * The text of a label code (DESIGN.md section 6: labels are locale keys or multilingual text
 * codes, never literal text): the page's own multilingual text in the user's language, else English,
 * else the host's locale key; the code itself when neither knows it, so a missing text is visible
 * to the configurator instead of an empty label.
 */
export function resolveLabel(code: string, page: Pick<PageDefinition, 'texts'> | undefined, translator: Translator): string {
  const own = page?.texts?.[code];
  if (own) return (own as Record<string, string | undefined>)[translator.language] ?? own.en;
  if (translator.hasText(code)) return translator.t(code);
  return code;
}
