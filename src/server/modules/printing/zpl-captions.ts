import type { Language } from '../../../common/languages.js';
import { translate } from '../../http/i18n.js';
import { ENGLISH_CAPTIONS, type ZplCaptions } from './zpl.js';

/**
 * Text a label printer's built-in font prints: Latin letters with their accents, digits,
 * punctuation and spaces. Thai, Chinese, Japanese and Korean need a font not every printer has.
 */
/** How a text is looked up: the repository's locale files unless another source is given. */
export type Translator = (language: Language, key: string, params: Record<string, string | number>) => string;

const LATIN_ONLY = /^[\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]*$/u;

/**
 * The captions of a ZPL label in a language (`printing.label.*`, in capitals), when every one of
 * them is written in Latin script; otherwise the English ones, so that no label depends on a
 * printer font the printer may lack. A PDF label prints every language (`labelPdf`).
 */
export function zplCaptions(language: Language, texts: Translator = translate): ZplCaptions {
  const t = (key: string, params: Record<string, string | number> = {}) => texts(language, `printing.label.${key}`, params).toLocaleUpperCase();
  const captions: ZplCaptions = {
    pallet: t('pallet'),
    shipFrom: t('shipFrom'),
    shipTo: t('shipTo'),
    order: t('order'),
    sscc: t('sscc'),
    grossWeight: t('grossWeight'),
    cartonOf: (no, count) => t('cartonOf', { no, count }),
    palletOf: (no, count) => t('palletOf', { no, count }),
  };
  const printed = [captions.pallet, captions.shipFrom, captions.shipTo, captions.order, captions.sscc, captions.grossWeight, captions.cartonOf(1, 1), captions.palletOf(1, 1)];
  return printed.every((text) => LATIN_ONLY.test(text)) ? captions : ENGLISH_CAPTIONS;
}
