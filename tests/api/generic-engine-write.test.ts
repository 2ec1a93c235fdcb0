import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenericRow } from '../../engine/schema/api.js';
import { injectAs, json, type TestApp } from '../helpers/app.js';
import { buildEngineFixture, engineRequests, MODULE } from './generic-engine.fixture.js';

/**
 * The generic engine API's writes (part 3): adding with every field rule, updating at the
 * version read, deletion all or nothing, and import from csv and xlsx through a field map. The
 * fixture is in generic-engine.fixture.ts.
 */
describe('generic engine API: writing', () => {
  let t: TestApp;
  let editor: string;
  let viewer: string;
  let other: string;
  let projectId: number;

  beforeAll(async () => {
    ({ t, editor, viewer, other, projectId } = await buildEngineFixture());
  });

  afterAll(async () => {
    await t?.close();
  });

  const { call, select, add, tableCount } = engineRequests(() => t);

  describe('adding', () => {
    it('adds a record with defaults, scope, audit and the calculated field', async () => {
      const response = await add(editor, { code: 'D-001', name: 'Drill', qty: '2.5', price: '4.10', amount: '999', category: 'TOOL' });
      expect(response.statusCode, response.body).toBe(200);
      const { row } = json<{ row: GenericRow }>(response);
      expect(row).toMatchObject({ code: 'D-001', active: true, status: 'new', category: 'TOOL' });
      expect(Number(row.amount)).toBe(10.25);
      const stored = await sql<{ project_id: number; created_by: string }>`select project_id, created_by from engine_item where code = 'D-001'`.execute(t.database.db);
      expect(Number(stored.rows[0].project_id)).toBe(projectId);
      expect(stored.rows[0].created_by).toBe('editor');
    });

    it('returns every field error of the record at once and writes nothing', async () => {
      const before = await tableCount();
      const response = await add(editor, {
        name: 'A name that is far too long for the field',
        qty: 'lots',
        price: '1.234',
        received_on: '2026-02-30',
        category: 'NOPE',
        owner_id: 999999,
        status: 'hold',
        surprise: 1,
      });
      expect(response.statusCode).toBe(400);
      const body = json<{ code: string; details: { field: string; code: string; message: string }[] }>(response);
      expect(body.code).toBe('VALIDATION_FAILED');
      const found = body.details.map((d) => `${d.field}:${d.code}`).sort();
      expect(found).toEqual(
        [
          'surprise:FIELD_UNKNOWN',
          'qty:FIELD_TYPE',
          'received_on:FIELD_TYPE',
          'code:FIELD_REQUIRED',
          'note:FIELD_REQUIRED',
          'name:FIELD_TOO_LONG',
          'price:FIELD_DECIMALS',
          'category:FIELD_VALIDATION_SQL',
          'owner_id:FIELD_FOREIGN',
        ].sort(),
      );
      expect(body.details.every((d) => d.message.length > 0)).toBe(true);
      expect(await tableCount()).toBe(before);
    });

    it('refuses a duplicate within the project but not one of another project', async () => {
      const duplicate = await add(editor, { code: 'A-001' });
      expect(duplicate.statusCode).toBe(400);
      expect(json<{ details: { field: string; code: string }[] }>(duplicate).details).toEqual([expect.objectContaining({ field: 'code', code: 'FIELD_NOT_UNIQUE' })]);
      const elsewhere = await add(other, { code: 'A-002' });
      expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    });

    it('checks range and foreign values within the scope', async () => {
      const otherOwner = await sql<{ id: number }>`select id from engine_owner where code = 'OWN-OTHER'`.execute(t.database.db);
      const response = await add(editor, { code: 'R-001', qty: -1, owner_id: otherOwner.rows[0].id });
      expect(response.statusCode).toBe(400);
      expect(json<{ details: { field: string; code: string }[] }>(response).details.map((d) => `${d.field}:${d.code}`).sort()).toEqual(['owner_id:FIELD_FOREIGN', 'qty:FIELD_RANGE']);
    });

    it('answers the field errors in the caller language', async () => {
      const response = await call(editor, '/api/generic/adding', { moduleCode: MODULE, functionCode: 'item', record: { name: 'x' } }, { 'x-language': 'zh' });
      expect(json<{ details: { message: string }[] }>(response).details[0].message).toContain('必填');
    });
  });

  describe('updating', () => {
    it('updates at the version read and refuses a stale update without overwriting', async () => {
      const [row] = (await select(editor, { conditions: { combinator: 'and', rules: [{ field: 'code', operator: '=', value: 'A-002' }] } })).rows;
      const first = await call(editor, '/api/generic/updating', { moduleCode: MODULE, functionCode: 'item', key: row._key, version: row._version, record: { name: 'Apricot 2', qty: 4, code: 'HACK' } });
      expect(first.statusCode, first.body).toBe(200);
      const updated = json<{ row: GenericRow }>(first).row;
      expect(updated).toMatchObject({ name: 'Apricot 2', code: 'A-002' });
      expect(Number(updated.amount)).toBe(4);
      expect(updated._version).not.toBe(row._version);

      const stale = await call(editor, '/api/generic/updating', { moduleCode: MODULE, functionCode: 'item', key: row._key, version: row._version, record: { name: 'Lost update' } });
      expect(stale.statusCode).toBe(409);
      expect(json<{ code: string }>(stale).code).toBe('STALE_UPDATE');
      const stored = await sql<{ name: string }>`select name from engine_item where id = ${row._key}`.execute(t.database.db);
      expect(stored.rows[0].name).toBe('Apricot 2');
    });

    it('writes nothing when only non-editable or calculated fields are sent', async () => {
      const [row] = (await select(editor, { conditions: { combinator: 'and', rules: [{ field: 'code', operator: '=', value: 'B-002' }] } })).rows;
      const response = await call(editor, '/api/generic/updating', { moduleCode: MODULE, functionCode: 'item', key: row._key, version: row._version, record: { code: 'NEW', amount: '1' } });
      expect(response.statusCode, response.body).toBe(200);
      expect(json<{ row: GenericRow }>(response).row).toMatchObject({ code: 'B-002', amount: row.amount, _version: row._version });
    });

    it('answers NO_RECORD for a row of another project', async () => {
      const [row] = (await select(editor, { conditions: { combinator: 'and', rules: [{ field: 'code', operator: '=', value: 'B-002' }] } })).rows;
      const response = await call(other, '/api/generic/updating', { moduleCode: MODULE, functionCode: 'item', key: row._key, version: row._version, record: { name: 'Stolen' } });
      expect(response.statusCode).toBe(404);
      expect(json<{ code: string }>(response).code).toBe('NO_RECORD');
    });
  });

  describe('deletion', () => {
    it('deletes at the version read, and all or nothing', async () => {
      await add(editor, { code: 'X-001' });
      await add(editor, { code: 'X-002' });
      const { rows } = await select(editor, { conditions: { combinator: 'and', rules: [{ field: 'code', operator: 'beginsWith', value: 'X-' }] } });
      expect(rows).toHaveLength(2);
      const mixed = await call(editor, '/api/generic/deletion', {
        moduleCode: MODULE,
        functionCode: 'item',
        rows: [{ key: rows[0]._key, version: rows[0]._version }, { key: rows[1]._key, version: '1999-01-01 00:00:00+00' }],
      });
      expect(mixed.statusCode).toBe(409);
      expect((await select(editor, { conditions: { combinator: 'and', rules: [{ field: 'code', operator: 'beginsWith', value: 'X-' }] } })).total).toBe(2);
      const ok = await call(editor, '/api/generic/deletion', { moduleCode: MODULE, functionCode: 'item', rows: rows.map((r) => ({ key: r._key, version: r._version })) });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(json<{ deleted: number }>(ok).deleted).toBe(2);
      expect((await select(editor, { conditions: { combinator: 'and', rules: [{ field: 'code', operator: 'beginsWith', value: 'X-' }] } })).total).toBe(0);
    });
  });

  describe('import', () => {
    function multipart(fields: Record<string, string>, file: { name: string; content: Buffer; type: string }) {
      const boundary = '----engineTestBoundary';
      const parts: Buffer[] = [];
      for (const [name, value] of Object.entries(fields)) {
        parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
      }
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
      parts.push(file.content, Buffer.from(`\r\n--${boundary}--\r\n`));
      return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
    }
    const upload = (token: string, name: string, content: Buffer, type = 'text/csv') => {
      const body = multipart({ moduleCode: MODULE, functionCode: 'item', fieldMap: 'default' }, { name, content, type });
      return injectAs(t.app, token, { method: 'POST', url: '/api/generic/import', payload: body.payload, headers: body.headers });
    };

    it('imports nothing and lists every row error when one row is bad', async () => {
      const before = await tableCount();
      const csv = 'Item code,Name,Quantity,Price\nI-001,Imported one,1,2.00\n,No code,x,1\nI-002,"Quoted, name",3,1.999\nA-001,Duplicate,1,1\n';
      const response = await upload(editor, 'items.csv', Buffer.from(csv));
      expect(response.statusCode, response.body).toBe(400);
      const body = json<{ code: string; details: { field: string; code: string; params: { row: number } }[] }>(response);
      expect(body.code).toBe('IMPORT_REJECTED');
      expect(body.details.map((d) => `${d.params.row}:${d.code}`).sort()).toEqual(['3:FIELD_REQUIRED', '3:FIELD_TYPE', '4:FIELD_DECIMALS', '5:FIELD_NOT_UNIQUE'].sort());
      expect(body.details[0].field).toMatch(/^row \d+: /);
      expect(await tableCount()).toBe(before);
    });

    it('imports every row of a good csv in one go', async () => {
      const csv = '\ufeffItem code,Name,Quantity,Price\r\nI-001,Imported one,1,2.00\r\nI-002,"Quoted, ""name""",3,1.5\r\n';
      const response = await upload(editor, 'items.csv', Buffer.from(csv));
      expect(response.statusCode, response.body).toBe(200);
      expect(json<{ inserted: number }>(response).inserted).toBe(2);
      const { rows } = await select(editor, { conditions: { combinator: 'and', rules: [{ field: 'code', operator: 'beginsWith', value: 'I-' }] } });
      expect(rows.map((r) => [r.code, r.name, Number(r.amount)])).toEqual([
        ['I-001', 'Imported one', 2],
        ['I-002', 'Quoted, "name"', 4.5],
      ]);
    });

    it('imports an xlsx file through the field map (header and index columns)', async () => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Items');
      sheet.addRow(['Item code', 'Name', 'Quantity', 'Anything']);
      sheet.addRow(['X-100', 'From Excel', 2, 3.25]);
      const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
      const response = await upload(editor, 'items.xlsx', buffer, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(response.statusCode, response.body).toBe(200);
      const { rows } = await select(editor, { conditions: { combinator: 'and', rules: [{ field: 'code', operator: '=', value: 'X-100' }] } });
      expect(Number(rows[0].price)).toBe(3.25);
      expect(Number(rows[0].amount)).toBe(6.5);
    });

    it('refuses a file without a mapped column, and a user without the add right', async () => {
      const missing = await upload(editor, 'items.csv', Buffer.from('Code,Name\nQ-1,x\n'));
      expect(missing.statusCode).toBe(400);
      expect(json<{ details: { code: string }[] }>(missing).details.map((d) => d.code)).toContain('IMPORT_COLUMN_MISSING');
      const forbidden = await upload(viewer, 'items.csv', Buffer.from('Item code,Name,Quantity,Price\nQ-1,x,1,1\n'));
      expect(forbidden.statusCode).toBe(403);
    });
  });
});
