import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../src/server/install/demo-data.js';
import { buildTestApp, createUser, injectAs, json, type TestApp } from '../helpers/app.js';
import { MODULES } from '../../src/server/modules/index.js';

/**
 * Attachments of records through the real server (`/generic/getAttachment`,
 * `uploadAttachment`, `updateAttachment`, `downloadAttachment`): several files at once, the type
 * read from the bytes, the bytes back unchanged, the cap of the record refused with its message and
 * nothing stored, the page rights and the project of the record.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/attachments');
const PNG = fs.readFileSync(path.join(FIXTURES, 'sample.png'));
const PDF = fs.readFileSync(path.join(FIXTURES, 'sample.pdf'));
const CSV = fs.readFileSync(path.join(FIXTURES, 'sample.csv'));
const LIMIT_MB = 1;

let t: TestApp;
let editor: string;
let viewer: string;
let noRight: string;
let otherProject: string;
let skuId: number;

interface Attachment {
  id: number;
  fileName: string;
  remark: string | null;
  contentType: string;
  size: number;
  previewable: boolean;
}
interface Listing {
  attachments: Attachment[];
  totalBytes: number;
  limitBytes: number;
}

function multipart(fields: Record<string, string>, files: Array<{ name: string; content: Buffer; type?: string }>) {
  const boundary = '----wms-test-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`));
    parts.push(file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const record = () => ({ moduleCode: 'masterdata', functionCode: 'sku', recordKey: String(skuId) });

function upload(token: string, files: Array<{ name: string; content: Buffer; type?: string }>, fields: Record<string, string> = record()) {
  return injectAs(t.app, token, { method: 'POST', url: '/api/generic/uploadAttachment', ...multipart(fields, files) });
}

const list = (token: string, body: Record<string, unknown> = record()) => injectAs(t.app, token, { method: 'POST', url: '/api/generic/getAttachment', payload: body });
const download = (token: string, id: number) => injectAs(t.app, token, { method: 'POST', url: '/api/generic/downloadAttachment', payload: { id } });
const stored = async () => Number((await t.database.db.selectFrom('attachment').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

beforeAll(async () => {
  t = await buildTestApp({ ATTACHMENT_LIMIT_MB: String(LIMIT_MB) });
  await loadDemoData(t.database.db, MODULES);
  const db = t.database.db;
  const org = await db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
  await db.insertInto('project').values({ organization_id: org.id, code: 'PRJ2', name: 'Second project', created_by: 'test', updated_by: 'test' }).execute();
  skuId = Number((await db.selectFrom('sku').innerJoin('project', 'project.id', 'sku.project_id').select('sku.id').where('project.code', '=', 'PRJ1').orderBy('sku.code').executeTakeFirstOrThrow()).id);
  editor = await createUser(t, { loginAccount: 'att-editor', rights: ['masterdata:view', 'masterdata:edit'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  viewer = await createUser(t, { loginAccount: 'att-viewer', rights: ['masterdata:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  noRight = await createUser(t, { loginAccount: 'att-nobody', rights: ['identity.user:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  otherProject = await createUser(t, { loginAccount: 'att-other', rights: ['masterdata:view', 'masterdata:edit'], projectCodes: ['PRJ2'], warehouseCodes: ['WH1'] });
});

afterAll(async () => {
  await t?.close();
});

describe('attachments of a record', () => {
  let ids: Record<string, number> = {};

  it('uploads three files at once and lists them with the type read from their bytes', async () => {
    const response = await upload(editor, [
      { name: 'photo.png', content: PNG, type: 'image/png' },
      // The name and the browser's claim say text; the bytes say PDF.
      { name: 'delivery-note.txt', content: PDF, type: 'text/plain' },
      { name: 'counts.csv', content: CSV, type: 'image/png' },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const listing = json<Listing>(await list(viewer));
    expect(listing.limitBytes).toBe(LIMIT_MB * 1024 * 1024);
    expect(listing.totalBytes).toBe(PNG.length + PDF.length + CSV.length);
    expect(listing.attachments.map((a) => [a.fileName, a.contentType, a.size, a.previewable])).toEqual([
      ['photo.png', 'image/png', PNG.length, true],
      ['delivery-note.txt', 'application/pdf', PDF.length, true],
      ['counts.csv', 'text/csv', CSV.length, false],
    ]);
    ids = Object.fromEntries(listing.attachments.map((a) => [a.fileName, a.id]));
  });

  it('downloads a file byte for byte, with its detected type', async () => {
    for (const [name, bytes, type] of [
      ['photo.png', PNG, 'image/png'],
      ['delivery-note.txt', PDF, 'application/pdf'],
    ] as const) {
      const response = await download(viewer, ids[name]);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(type);
      expect(response.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(name)}`);
      expect(Buffer.compare(response.rawPayload, bytes)).toBe(0);
    }
  });

  it('refuses an upload that would pass the cap with the spec message, and stores nothing', async () => {
    const before = await stored();
    const big = Buffer.alloc(LIMIT_MB * 1024 * 1024 - 100, 0x41);
    // Alone under the cap, but together with what the record has it is over.
    const response = await injectAs(t.app, editor, { method: 'POST', url: '/api/generic/uploadAttachment', headers: { 'x-language': 'en', ...multipart(record(), [{ name: 'big.txt', content: big }]).headers }, payload: multipart(record(), [{ name: 'big.txt', content: big }]).payload });
    expect(response.statusCode).toBe(413);
    expect(json<{ code: string; message: string }>(response)).toMatchObject({
      code: 'ATTACHMENT_TOTAL_TOO_LARGE',
      message: 'The upload exceeds the size limit: uploaded attachments must total at most 1 MB.',
    });
    // Several files that together pass the cap on their own.
    const half = Buffer.alloc(600 * 1024, 0x42);
    const twice = await upload(editor, [
      { name: 'a.txt', content: half },
      { name: 'b.txt', content: half },
    ]);
    expect(twice.statusCode).toBe(413);
    expect(json<{ code: string }>(twice).code).toBe('ATTACHMENT_TOTAL_TOO_LARGE');
    expect(await stored()).toBe(before);
  });

  it('renames, changes the remark and replaces a file; the replacement is typed from its bytes', async () => {
    const form = multipart({ id: String(ids['counts.csv']), fileName: 'stock.csv', remark: 'first count' }, []);
    const renamed = await injectAs(t.app, editor, { method: 'POST', url: '/api/generic/updateAttachment', ...form });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(json<{ attachment: Attachment }>(renamed).attachment).toMatchObject({ fileName: 'stock.csv', remark: 'first count', contentType: 'text/csv' });
    const replaced = await injectAs(t.app, editor, { method: 'POST', url: '/api/generic/updateAttachment', ...multipart({ id: String(ids['counts.csv']) }, [{ name: '../../etc/passwd.csv', content: PNG }]) });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(json<{ attachment: Attachment }>(replaced).attachment).toMatchObject({ fileName: 'passwd.csv', remark: 'first count', contentType: 'image/png', size: PNG.length });
    expect(Buffer.compare((await download(editor, ids['counts.csv'])).rawPayload, PNG)).toBe(0);
  });

  it('needs the page view right to list and download, and the edit right to change', async () => {
    for (const response of [await list(noRight), await download(noRight, ids['photo.png'])]) {
      expect(response.statusCode).toBe(403);
      expect(json<{ code: string }>(response).code).toBe('FORBIDDEN');
    }
    const before = await stored();
    const refused = await upload(viewer, [{ name: 'x.png', content: PNG }]);
    expect(refused.statusCode).toBe(403);
    const deletion = await injectAs(t.app, viewer, { method: 'POST', url: '/api/generic/deleteAttachment', payload: { id: ids['photo.png'] } });
    expect(deletion.statusCode).toBe(403);
    expect(await stored()).toBe(before);
  });

  it('does not reach the record or the files of another project', async () => {
    const listing = await list(otherProject);
    expect(listing.statusCode).toBe(404);
    expect(json<{ code: string }>(listing).code).toBe('NO_RECORD');
    expect((await download(otherProject, ids['photo.png'])).statusCode).toBe(404);
    const before = await stored();
    expect((await upload(otherProject, [{ name: 'x.png', content: PNG }])).statusCode).toBe(404);
    const deletion = await injectAs(t.app, otherProject, { method: 'POST', url: '/api/generic/deleteAttachment', payload: { id: ids['photo.png'] } });
    expect(deletion.statusCode).toBe(404);
    expect(await stored()).toBe(before);
  });

  it('refuses a page without attachments and a malformed upload', async () => {
    const other = await list(editor, { moduleCode: 'masterdata', functionCode: 'whs', recordKey: '1' });
    expect(other.statusCode).toBe(409);
    expect(json<{ code: string }>(other).code).toBe('ATTACHMENTS_NOT_ENABLED');
    const noFile = await upload(editor, []);
    expect(noFile.statusCode).toBe(400);
    const badCode = await upload(editor, [{ name: 'x.png', content: PNG }], { moduleCode: 'x y', functionCode: 'sku', recordKey: '1' });
    expect(badCode.statusCode).toBe(400);
    const json415 = await injectAs(t.app, editor, { method: 'POST', url: '/api/generic/uploadAttachment', payload: {} });
    expect(json415.statusCode).toBe(415);
  });

  it('deletes an attachment', async () => {
    const response = await injectAs(t.app, editor, { method: 'POST', url: '/api/generic/deleteAttachment', payload: { id: ids['photo.png'] } });
    expect(response.statusCode).toBe(200);
    expect(json<{ deleted: number }>(response).deleted).toBe(1);
    const listing = json<Listing>(await list(editor));
    expect(listing.attachments.map((a) => a.fileName)).toEqual(['delivery-note.txt', 'passwd.csv']);
    expect((await download(editor, ids['photo.png'])).statusCode).toBe(404);
  });
});
