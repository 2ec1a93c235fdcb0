import { LANGUAGES } from '../../common/languages';
import { useSession } from '../../app/public';

/** The text of a six-language label in the session's language (English, then any, as fallback). */
export function useLabel(): (labels: Record<string, string> | undefined, fallback?: string) => string {
  const language = LANGUAGES[useSession((s) => s.languageCode)] ?? 'en';
  return (labels, fallback = '') => labels?.[language] || labels?.en || Object.values(labels ?? {}).find(Boolean) || fallback;
}

/** A cell as the report's column formats it: numbers with the column's decimals. */
export function formatCell(value: unknown, type: string, decimals: number | undefined): string {
  if (value === null || value === undefined) return '';
  if (type === 'number' && decimals !== undefined && value !== '' && !Number.isNaN(Number(value))) return Number(value).toFixed(decimals);
  if (type === 'date' && typeof value === 'string') return value.slice(0, 10);
  if (type === 'datetime' && typeof value === 'string') return value.replace('T', ' ').slice(0, 19);
  return cellText(value);
}

/** Any value of a row as text (a JSON value of the SQL as JSON). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}
