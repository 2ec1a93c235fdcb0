import { AppError, type FieldError } from '../../../common/errors.js';

/** Longest ship-to address accepted, in characters ("within a maximum number of characters"). */
export const ADDRESS_EN_MAX = 200;
export const ADDRESS_CN_MAX = 100;

const ENGLISH = /^[\x20-\x7E]*$/;
// CJK ideographs, CJK and full-width punctuation, digits, spaces and the usual address signs.
const CHINESE = /^[\u3000-\u303F\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF0-9\s\-#.,()/]*$/u;
const HAS_CJK = /[\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF]/u;

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * The ship-to address rule: the English address holds English only and the
 * Chinese address Chinese only, each within its maximum length; the Chinese address is required
 * when the English one is empty. Refuses with VALIDATION_FAILED and one detail per field.
 */
export function checkAddress(record: Record<string, unknown>): void {
  const en = text(record.ship_to_address_en);
  const cn = text(record.ship_to_address_cn);
  const details: FieldError[] = [];
  if (!ENGLISH.test(en)) details.push({ field: 'ship_to_address_en', code: 'ADDRESS_ENGLISH_ONLY' });
  else if (en.length > ADDRESS_EN_MAX) details.push({ field: 'ship_to_address_en', code: 'FIELD_TOO_LONG', params: { max: ADDRESS_EN_MAX } });
  if (cn && (!CHINESE.test(cn) || !HAS_CJK.test(cn))) details.push({ field: 'ship_to_address_cn', code: 'ADDRESS_CHINESE_ONLY' });
  else if ([...cn].length > ADDRESS_CN_MAX) details.push({ field: 'ship_to_address_cn', code: 'FIELD_TOO_LONG', params: { max: ADDRESS_CN_MAX } });
  if (!en && !cn) details.push({ field: 'ship_to_address_cn', code: 'ADDRESS_CHINESE_REQUIRED' });
  if (details.length) throw new AppError('VALIDATION_FAILED', {}, details);
}
