import { isLanguage } from '../common/languages';
import { api } from './api/client';
import i18next from './i18n';

/**
 * Lays the install's own texts (the multilingual texts of /mult) over the shipped texts of the
 * language shown: a menu entry or page label whose code has a text there shows it. Components
 * re-render when they arrive (i18next's `added` event, bound in src/app/i18n.ts). A failed call
 * leaves the shipped texts.
 */
export async function loadInstallTexts(language: string): Promise<void> {
  if (!isLanguage(language)) return;
  try {
    const { texts } = await api<{ texts: Record<string, string> }>('/masterdata/texts', { quiet: true });
    if (Object.keys(texts).length) i18next.addResources(language, 'translation', texts);
  } catch {
    // The shipped texts stay.
  }
}
