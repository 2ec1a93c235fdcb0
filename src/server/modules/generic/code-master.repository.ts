import { sql, type Kysely } from 'kysely';
import type { DropdownOption } from '../../../../engine/schema/api.js';
import type { DropdownPorts, EngineSession } from '../../../../engine/server/index.js';
import type { Language } from '../../../common/languages.js';
import type { DB } from '../../db/schema.js';
import { FOREIGN_ROW_FILTERS } from '../identity/index.js';

/** The code master's description column of each language; English is the fallback. */
const DESCRIPTION_COLUMN: Record<Language, 'desc_en' | 'desc_zh' | 'desc_zh_tw' | 'desc_kor' | 'desc_th' | 'desc_jp'> = {
  en: 'desc_en',
  zh: 'desc_zh',
  zh_tw: 'desc_zh_tw',
  kor: 'desc_kor',
  th: 'desc_th',
  jp: 'desc_jp',
};

/** Active codes of one code type, in their sort order, labelled in the caller's language. */
export async function findCodeMasterOptions(db: Kysely<DB>, codeType: string, language: Language): Promise<DropdownOption[]> {
  const column = DESCRIPTION_COLUMN[language];
  const rows = await db
    .selectFrom('code_master')
    .select(['code', sql<string>`coalesce(${sql.ref(column)}, desc_en, code)`.as('label')])
    .where('code_type', '=', codeType)
    .where('active', '=', true)
    .orderBy('sort_seq')
    .orderBy('code')
    .execute();
  return rows.map((row) => ({ value: row.code, label: row.label }));
}

/** The engine's dropdown ports, answered from our tables. */
export function dropdownPorts(db: Kysely<DB>, language: Language): DropdownPorts {
  return {
    codeMaster: (_engineDb, codeType: string, _session: EngineSession) => findCodeMasterOptions(db, codeType, language),
    foreignRowFilter: (table) => FOREIGN_ROW_FILTERS.get(table),
  };
}

/**
 * Units of measure (/generic/uom): of one SKU of the session's project (its base
 * unit and the units of its UPC codes), else every active UOM of the code master.
 */
export async function findUomOptions(db: Kysely<DB>, projectId: number, sku: { code?: string; id?: number }, language: Language): Promise<DropdownOption[]> {
  if (sku.code === undefined && sku.id === undefined) return findCodeMasterOptions(db, 'UOM', language);
  const which = sku.id !== undefined ? sql`s.id = ${sku.id}` : sql`s.code = ${sku.code}`;
  const { rows } = await sql<{ uom: string }>`
    select s.base_uom as uom from sku s where s.project_id = ${projectId} and ${which}
    union
    select u.uom from sku_upc u join sku s on s.id = u.sku_id where s.project_id = ${projectId} and u.project_id = ${projectId} and ${which}
    order by 1
  `.execute(db);
  return rows.map((row) => ({ value: row.uom, label: row.uom }));
}
