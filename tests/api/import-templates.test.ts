import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

/**
 * Import templates (section 5): templates and
 * their columns are kept through the engine's pages (/importConfig), and an import through one is
 * read by its file type and column rules, then goes through the target page's own rules, all or
 * nothing. The target here is the currency master: code, description, decimals.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import-templates');

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
});

afterAll(async () => {
  await t?.close();
});

function call(token: string, url: string, payload: unknown) {
  return injectAs(t.app, token, { method: 'POST', url, payload: payload as Record<string, unknown> });
}

async function addTemplate(code: string, header: Record<string, unknown>, columns: Record<string, unknown>[]): Promise<number> {
  const added = await call(admin, '/api/generic/adding', {
    moduleCode: 'masterdata',
    functionCode: 'importConfig',
    record: { code, name_en: `Template ${code}`, module_code: 'masterdata', function_code: 'currency', start_row: 1, ...header },
  });
  expect(added.statusCode, added.body).toBe(200);
  const id = Number(json<{ row: { _key: number } }>(added).row._key);
  for (const [seq, column] of columns.entries()) {
    const response = await call(admin, '/api/generic/adding', { moduleCode: 'masterdata', functionCode: 'importConfigColumn', record: { template_id: id, seq, ...column } });
    expect(response.statusCode, response.body).toBe(200);
  }
  return id;
}

function multipart(fields: Record<string, string>, file: { name: string; content: Buffer }) {
  const boundary = '----importTemplateBoundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/plain\r\n\r\n`));
  parts.push(file.content, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function importWith(token: string, templateId: number, fixture: string) {
  const body = multipart({ templateId: String(templateId) }, { name: fixture, content: fs.readFileSync(path.join(FIXTURES, fixture)) });
  return injectAs(t.app, token, { method: 'POST', url: '/api/importConfig/import', payload: body.payload, headers: body.headers });
}

async function currencies(prefix: string) {
  const rows = await t.database.db.selectFrom('currency').select(['code', 'description', 'decimals']).where('code', 'like', `${prefix}%`).orderBy('code').execute();
  return rows.map((r) => [r.code, r.description, r.decimals]);
}

describe('import templates', () => {
  let slash: number;

  it('imports a csv with the default slash delimiter and a header, columns found by header text', async () => {
    slash = await addTemplate('CUR-SLASH', { file_type: 'csv', with_header: true, start_row: 2 }, [
      { field_name: 'code', source_column: 'Code', mandatory: true, unique_key: true },
      { field_name: 'description', source_column: 'Description', mandatory: true },
      { field_name: 'decimals', source_column: 'Decimals', data_type: 'integer', range_min: '0', range_max: '6' },
    ]);
    const template = await t.database.db.selectFrom('import_template').select('delimiter').where('id', '=', slash).executeTakeFirstOrThrow();
    expect(template.delimiter).toBe('/');
    const response = await importWith(admin, slash, 'slash.csv');
    expect(response.statusCode, response.body).toBe(200);
    expect(json<{ inserted: number }>(response).inserted).toBe(2);
    expect(await currencies('AA')).toEqual([
      ['AAA', 'Alpha dollar', 2],
      ['AAB', 'Beta mark', 0],
    ]);
  });

  it('imports "Blank"-delimited text without a header, columns by number, two joined into one field', async () => {
    const id = await addTemplate('CUR-BLANK', { file_type: 'csv', delimiter: 'Blank', with_header: false, start_row: 1 }, [
      { field_name: 'code', source_column: '1', mandatory: true },
      { field_name: 'description', source_column: '2', combined_fields: '3' },
      { field_name: 'decimals', source_column: '4', data_type: 'integer', default_value: '2' },
    ]);
    const response = await importWith(admin, id, 'blank.txt');
    expect(response.statusCode, response.body).toBe(200);
    // "AAD Delta 3": the fourth value is missing, so the default applies and "3" joins the description.
    expect(await currencies('AAC')).toEqual([['AAC', 'Gamma crown', 2]]);
    expect(await currencies('AAD')).toEqual([['AAD', 'Delta 3', 2]]);
  });

  it('imports a fixed-width file by character positions', async () => {
    const id = await addTemplate('CUR-FIXED', { file_type: 'fixed', with_header: false, start_row: 1 }, [
      { field_name: 'code', start_pos: 1, end_pos: 3, mandatory: true },
      { field_name: 'description', start_pos: 4, end_pos: 21, mandatory: true },
      { field_name: 'decimals', start_pos: 22, end_pos: 22, data_type: 'integer' },
    ]);
    const response = await importWith(admin, id, 'fixed.txt');
    expect(response.statusCode, response.body).toBe(200);
    expect(await currencies('AAE')).toEqual([['AAE', 'Epsilon peso', 2]]);
    expect(await currencies('AAF')).toEqual([['AAF', 'Zeta yen', 2]]);
  });

  it('refuses a file named .xlsx that is no workbook with its reason, never a 500, and writes nothing', async () => {
    const id = await addTemplate('CUR-XLSX', { file_type: 'xlsx', with_header: true, start_row: 2 }, [{ field_name: 'code', source_column: 'Code', mandatory: true }]);
    const before = await currencies('');
    const body = multipart({ templateId: String(id) }, { name: 'currencies.xlsx', content: Buffer.from('not a workbook') });
    const response = await injectAs(t.app, admin, { method: 'POST', url: '/api/importConfig/import', payload: body.payload, headers: body.headers });
    expect(response.statusCode, response.body).toBe(400);
    expect(json(response)).toMatchObject({ code: 'IMPORT_FILE_INVALID' });
    expect(await currencies('')).toEqual(before);
  });

  it('refuses a file with two bad rows whole, listing both rows, and writes nothing', async () => {
    const before = await currencies('');
    const response = await importWith(admin, slash, 'two-bad-rows.csv');
    expect(response.statusCode, response.body).toBe(400);
    const body = json<{ code: string; details: { field: string; code: string; message: string; params: { row: number } }[] }>(response);
    expect(body.code).toBe('IMPORT_REJECTED');
    expect(body.details.map((d) => `${d.params.row}:${d.code}`).sort()).toEqual(['3:FIELD_REQUIRED', '4:FIELD_TYPE']);
    expect(body.details.every((d) => d.message.length > 0)).toBe(true);
    expect(await currencies('')).toEqual(before);
  });

  it("refuses rows the target page's own rules refuse (a code already there), and writes none of the file", async () => {
    const before = await currencies('');
    const response = await importWith(admin, slash, 'slash.csv');
    expect(response.statusCode, response.body).toBe(400);
    expect(json<{ code: string; details: { code: string }[] }>(response).details.map((d) => d.code)).toContain('FIELD_NOT_UNIQUE');
    expect(await currencies('')).toEqual(before);
  });

  it('refuses templates that do not fit their target page', async () => {
    const unknownPage = await call(admin, '/api/generic/adding', {
      moduleCode: 'masterdata',
      functionCode: 'importConfig',
      record: { code: 'BAD-PAGE', name_en: 'Bad', module_code: 'masterdata', function_code: 'nothingHere', file_type: 'csv', start_row: 1 },
    });
    expect(unknownPage.statusCode, unknownPage.body).toBe(400);
    expect(unknownPage.body).toContain('IMPORT_TARGET_UNKNOWN');
    const badDelimiter = await call(admin, '/api/generic/adding', {
      moduleCode: 'masterdata',
      functionCode: 'importConfig',
      record: { code: 'BAD-DELIM', name_en: 'Bad', module_code: 'masterdata', function_code: 'currency', file_type: 'csv', delimiter: ';;', start_row: 1 },
    });
    expect(badDelimiter.statusCode, badDelimiter.body).toBe(400);
    expect(badDelimiter.body).toContain('IMPORT_DELIMITER_INVALID');
    const badField = await call(admin, '/api/generic/adding', { moduleCode: 'masterdata', functionCode: 'importConfigColumn', record: { template_id: slash, field_name: 'no_such_field' } });
    expect(badField.statusCode, badField.body).toBe(400);
    expect(badField.body).toContain('IMPORT_TARGET_FIELD');
  });

  it("lists a page's templates only to who may add to it, and imports only with that right", async () => {
    const list = await injectAs(t.app, admin, { method: 'GET', url: '/api/importConfig/forPage?moduleCode=masterdata&functionCode=currency' });
    expect(list.statusCode, list.body).toBe(200);
    expect(json<{ templates: { code: string }[] }>(list).templates.map((x) => x.code)).toEqual(['CUR-BLANK', 'CUR-FIXED', 'CUR-SLASH', 'CUR-XLSX']);
    const viewer = await createUser(t, { loginAccount: 'currency-viewer', rights: ['masterdata.currency:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
    expect((await injectAs(t.app, viewer, { method: 'GET', url: '/api/importConfig/forPage?moduleCode=masterdata&functionCode=currency' })).statusCode).toBe(403);
    expect((await importWith(viewer, slash, 'slash.csv')).statusCode).toBe(403);
    expect((await importWith(admin, 999999, 'slash.csv')).statusCode).toBe(404);
  });
});
