/**
 * Canonical JSON of a page definition for export files, hashing and comparison:
 * object keys sorted at every depth, two-space indent, a trailing newline. Two equal definitions
 * always give the same text, so exported files diff line by line and re-export identically.
 */
export function stableStringify(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

/** A copy of a JSON value with every object's keys in sorted order. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) sorted[key] = sortKeys(item);
    }
    return sorted;
  }
  return value;
}

/** The path of a page's export file: the layout of `definitions/`, `<module>/<function>.page.json`. */
export function definitionFilePath(moduleCode: string, functionCode: string): string {
  return `${moduleCode}/${functionCode}.page.json`;
}

/** Module and function of an export file path, or undefined when the path is not one. */
export function parseDefinitionFilePath(path: string): { moduleCode: string; functionCode: string } | undefined {
  const match = /^(?:.*\/)?([A-Za-z][A-Za-z0-9_-]{0,63})\/([A-Za-z][A-Za-z0-9_-]{0,63})\.page\.json$/.exec(path);
  return match ? { moduleCode: match[1], functionCode: match[2] } : undefined;
}

/** One difference between two JSON documents, by JSON pointer. */
export interface JsonChange {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

/**
 * The differences between two JSON documents, leaf by leaf; arrays of objects carrying a `name` or
 * `code` are matched by it, so that reordering fields reads as a move of `sequence`, not as every
 * field changed. At most `limit` changes are listed.
 */
export function diffJson(before: unknown, after: unknown, limit = 500): JsonChange[] {
  const changes: JsonChange[] = [];
  const walk = (a: unknown, b: unknown, path: string) => {
    if (changes.length >= limit) return;
    if (a === undefined && b === undefined) return;
    if (a === undefined) return void changes.push({ path, kind: 'added', after: b });
    if (b === undefined) return void changes.push({ path, kind: 'removed', before: a });
    if (Array.isArray(a) && Array.isArray(b)) {
      const keyOf = identityKey(a, b);
      if (keyOf) {
        const left = new Map(a.map((item) => [keyOf(item), item]));
        const right = new Map(b.map((item) => [keyOf(item), item]));
        for (const [key, item] of left) walk(item, right.get(key), `${path}/${escapePointer(key)}`);
        for (const [key, item] of right) if (!left.has(key)) walk(undefined, item, `${path}/${escapePointer(key)}`);
        const orderA = a.map(keyOf).filter((k) => right.has(k));
        const orderB = b.map(keyOf).filter((k) => left.has(k));
        if (orderA.join('\u0000') !== orderB.join('\u0000')) changes.push({ path, kind: 'changed', before: orderA, after: orderB });
        return;
      }
      const length = Math.max(a.length, b.length);
      for (let i = 0; i < length; i += 1) walk(a[i], b[i], `${path}/${i}`);
      return;
    }
    if (isObject(a) && isObject(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      for (const key of keys) walk(a[key], b[key], `${path}/${escapePointer(key)}`);
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) changes.push({ path, kind: 'changed', before: a, after: b });
  };
  walk(before, after, '');
  return changes;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function identityKey(a: unknown[], b: unknown[]): ((item: unknown) => string) | undefined {
  const all = [...a, ...b];
  if (!all.length || !all.every(isObject)) return undefined;
  for (const property of ['name', 'code']) {
    const keys = all.map((item) => item[property]);
    if (!keys.every((k) => typeof k === 'string')) continue;
    if (new Set(a.map((item) => (item as Record<string, unknown>)[property])).size !== a.length) continue;
    if (new Set(b.map((item) => (item as Record<string, unknown>)[property])).size !== b.length) continue;
    return (item) => String((item as Record<string, unknown>)[property]);
  }
  return undefined;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
