/** Lists cut long text past this many characters. */
export const LIST_TEXT_LIMIT = 12;

/**
 * Cuts `text` to `limit` characters followed by an ellipsis when it is longer; counts characters,
 * not UTF-16 units, so a CJK or emoji text is never cut in the middle of a character.
 */
export function truncateText(text: string | null | undefined, limit: number = LIST_TEXT_LIMIT): string {
  if (text == null) return '';
  const chars = Array.from(text);
  return chars.length > limit ? `${chars.slice(0, limit).join('')}…` : text;
}
