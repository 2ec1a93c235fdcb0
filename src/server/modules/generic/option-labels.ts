import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { FieldDefinition, PageDefinition } from '../../../../engine/schema/index.js';
import { foreignRowConditions, type EngineSession, type PreparedPage } from '../../../../engine/server/index.js';
import type { Language } from '../../../common/languages.js';
import type { DB } from '../../db/schema.js';
import { translate } from '../../http/i18n.js';
import { FOREIGN_ROW_FILTERS } from '../identity/index.js';
import { findCodeMasterOptions } from './code-master.repository.js';

/** A field's stored values and the texts a user sees for them, both ways. */
export interface OptionLabels {
  labelOf(value: unknown): string | undefined;
  valueOf(label: unknown): unknown;
}

function textOf(page: PageDefinition, code: string, language: Language): string {
  const own = page.texts?.[code];
  return own ? (own[language] ?? own.en) : translate(language, code);
}

function key(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * What the screen shows for the values of the fields with choices: code-master
 * and static choices in the user's language, a foreign table's label column, for the values given
 * (an export batch) or the labels given (an import file). Choices from a page's own SQL or from a
 * route keep their stored value.
 */
export async function optionLabels(
  db: Kysely<DB>,
  prepared: PreparedPage,
  session: EngineSession,
  language: Language,
  field: FieldDefinition,
  wanted: { values?: unknown[]; labels?: string[] },
): Promise<OptionLabels | undefined> {
  const options = field.options;
  if (!options) return undefined;
  let pairs: Array<{ value: unknown; label: string }> = [];
  switch (options.type) {
    case 'sql':
    case 'route':
      return undefined;
    case 'static':
      pairs = options.items.map((item) => ({ value: item.value, label: textOf(prepared.page, item.labelCode, language) }));
      break;
    case 'codeMaster':
      pairs = (await findCodeMasterOptions(db, options.codeType, language)).map((o) => ({ value: o.value, label: o.label ?? String(o.value) }));
      break;
    case 'foreign': {
      const values = [...new Set((wanted.values ?? []).filter((v) => v !== null && v !== undefined))];
      const labels = [...new Set(wanted.labels ?? [])];
      if (!values.length && !labels.length) return undefined;
      const value = sql.ref(`f.${options.valueField}`);
      const label = sql.ref(`f.${options.labelField ?? options.valueField}`);
      const where: RawBuilder<unknown>[] = [];
      if (values.length) where.push(sql`cast(${value} as text) in (${sql.join(values.map((v) => key(v)))})`);
      if (labels.length) where.push(sql`cast(${label} as text) in (${sql.join(labels)})`);
      // The rows the dropdown offers, no others: a label of another project's row is not turned into its id.
      const scoped = foreignRowConditions(prepared, session, options.table, options.scope, (table) => FOREIGN_ROW_FILTERS.get(table));
      const { rows } = await sql<{ value: unknown; label: string | null }>`
        select distinct ${value} as value, cast(${label} as text) as label from ${sql.table(options.table)} as f
        where (${sql.join(where, sql` or `)})${sql.join(scoped.map((c) => sql` and ${c}`), sql``)}
      `.execute(db);
      pairs = rows.filter((r) => r.label !== null).map((r) => ({ value: r.value, label: r.label! }));
      break;
    }
  }
  const labelByValue = new Map(pairs.map((p) => [key(p.value), p.label]));
  const valueByLabel = new Map<string, unknown>();
  for (const pair of pairs) if (!valueByLabel.has(pair.label)) valueByLabel.set(pair.label, pair.value);
  return {
    labelOf: (value) => (value === null || value === undefined ? undefined : labelByValue.get(key(value))),
    // A file may hold the stored value (as before) or the label the export wrote: both import.
    valueOf: (label) => (typeof label === 'string' && !labelByValue.has(label) && valueByLabel.has(label) ? valueByLabel.get(label) : label),
  };
}
