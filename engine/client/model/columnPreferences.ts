/** What the grid remembers per user and page: the hidden columns and the widths the user gave. */
export interface ColumnPreference {
  hidden: string[];
  /** Widths in pixels the user dragged columns to. */
  widths?: Record<string, number>;
}

/** The preference key of one user's page (the column choice is remembered per user). */
export function columnPreferenceKey(userKey: string | null, moduleCode: string, functionCode: string): string {
  return `engine.columns.${userKey ?? 'anonymous'}.${moduleCode}.${functionCode}`;
}

/** Reads a stored preference, ignoring anything malformed (a stale or hand-edited value). */
export function parseColumnPreference(text: string | null): ColumnPreference {
  if (!text) return { hidden: [] };
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && Array.isArray((value as ColumnPreference).hidden)) {
      const stored = (value as ColumnPreference).widths;
      const widths = Object.fromEntries(
        Object.entries(stored && typeof stored === 'object' ? stored : {}).filter(([, width]) => typeof width === 'number' && width >= 40 && width <= 2000),
      );
      return { hidden: (value as ColumnPreference).hidden.filter((name): name is string => typeof name === 'string'), widths };
    }
  } catch {
    // a broken value falls back to every column shown
  }
  return { hidden: [] };
}
