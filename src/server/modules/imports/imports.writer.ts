import { loadPageDefinition } from '../../../../engine/schema/index.js';
import { AppError } from '../../../common/errors.js';
import type { DB } from '../../db/schema.js';
import { findPublishedDefinition } from '../../definitions/page-definition.repository.js';
import { defineWriter } from '../area.js';
import { findTemplate } from './imports.repository.js';
import { parseDateWithFormat } from './template-parse.js';
import type { Kysely } from 'kysely';

/** The fields of the published page a template adds rows to; refused when there is no such page. */
async function targetFields(db: Kysely<DB>, projectId: number | null, moduleCode: unknown, functionCode: unknown): Promise<Set<string>> {
  const stored = typeof moduleCode === 'string' && typeof functionCode === 'string' ? await findPublishedDefinition(db, projectId, moduleCode, functionCode) : undefined;
  const loaded = stored ? loadPageDefinition(stored.content) : undefined;
  if (!loaded?.ok || loaded.value.readOnly) {
    throw new AppError('VALIDATION_FAILED', {}, [{ field: 'function_code', code: 'IMPORT_TARGET_UNKNOWN', params: { page: `${String(moduleCode)}/${String(functionCode)}` } }]);
  }
  return new Set(loaded.value.fields.filter((f) => f.stored !== false).map((f) => f.name));
}

/** Template header rules: a published, writable target page; a delimiter of one character, "Blank" or none. */
export const importTemplateWriter = defineWriter({
  name: 'imports.template',
  async beforeSave({ trx, merged, session }) {
    await targetFields(trx, session.projectId ?? null, merged.module_code, merged.function_code);
    const delimiter = merged.delimiter;
    if (typeof delimiter === 'string' && delimiter !== '' && delimiter.toLowerCase() !== 'blank' && [...delimiter].length !== 1) {
      throw new AppError('VALIDATION_FAILED', {}, [{ field: 'delimiter', code: 'IMPORT_DELIMITER_INVALID' }]);
    }
  },
});

/** Column rules: a field of the target page, positions for fixed width, a usable date format and range. */
export const importTemplateColumnWriter = defineWriter({
  name: 'imports.templateColumn',
  async beforeSave({ trx, merged, session }) {
    const template = await findTemplate(trx, session.projectId ?? 0, Number(merged.template_id));
    if (!template) throw new AppError('NO_RECORD');
    const fields = await targetFields(trx, template.project_id, template.module_code, template.function_code);
    const problems: { field: string; code: string; params?: Record<string, string | number> }[] = [];
    if (!fields.has(String(merged.field_name))) problems.push({ field: 'field_name', code: 'IMPORT_TARGET_FIELD', params: { name: String(merged.field_name) } });
    const start = merged.start_pos as number | null;
    const end = merged.end_pos as number | null;
    if (template.file_type === 'fixed' && (start === null || start === undefined)) problems.push({ field: 'start_pos', code: 'FIELD_REQUIRED' });
    if (start !== null && start !== undefined && end !== null && end !== undefined && end < start) problems.push({ field: 'end_pos', code: 'FIELD_RANGE', params: { min: start, max: '' } });
    const format = merged.date_format;
    if (typeof format === 'string' && format !== '' && !/YYYY/.test(format)) problems.push({ field: 'date_format', code: 'IMPORT_DATE_FORMAT' });
    if (typeof format === 'string' && /YYYY/.test(format) && parseDateWithFormat(format.replace('YYYY', '2024').replace('MM', '01').replace('DD', '31').replace('HH', '00').replace('mm', '00').replace('ss', '00'), format, merged.data_type === 'datetime') === undefined) {
      problems.push({ field: 'date_format', code: 'IMPORT_DATE_FORMAT' });
    }
    if (problems.length) throw new AppError('VALIDATION_FAILED', {}, problems);
  },
});
