import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../src/server/install/demo-data.js';
import { purgeExpiredDownloads } from '../../src/server/modules/download/download.service.js';
import { buildTestApp, createUser, injectAs, json, type TestApp } from '../helpers/app.js';
import { MODULES } from '../../src/server/modules/index.js';

/**
 * The download center through the real server: the engine's export started in the background,
 * its progress up to done, the file downloaded and read back, deleted; another user's file is not
 * his to see, download or delete; expired files are purged.
 */
let t: TestApp;
let clerk: string;
let otherClerk: string;
let noRight: string;

interface DownloadFile {
  id: number;
  title: string;
  fileName: string;
  status: 'running' | 'done' | 'failed';
  rowsWritten: number;
  rowsTotal: number | null;
  size: number | null;
  expiresAt: string;
}

const EXPORT = { moduleCode: 'masterdata', functionCode: 'sku', fields: ['code', 'description'], sort: [{ field: 'code', direction: 'asc' }] };

const list = async (token: string) => json<{ files: DownloadFile[] }>(await injectAs(t.app, token, { method: 'GET', url: '/api/download/list' })).files;

async function waitUntilFinished(token: string, id: number): Promise<DownloadFile[]> {
  const seen: DownloadFile[] = [];
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const file = (await list(token)).find((f) => f.id === id);
    if (!file) throw new Error(`file ${id} is not listed`);
    seen.push(file);
    if (file.status !== 'running') return seen;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`file ${id} did not finish`);
}

beforeAll(async () => {
  t = await buildTestApp({ DOWNLOAD_DAYS: '3' });
  await loadDemoData(t.database.db, MODULES);
  clerk = await createUser(t, { loginAccount: 'dl-clerk', rights: ['masterdata:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  otherClerk = await createUser(t, { loginAccount: 'dl-other', rights: ['masterdata:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  noRight = await createUser(t, { loginAccount: 'dl-nobody', rights: ['identity.user:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
});

afterAll(async () => {
  await t?.close();
});

describe('download center', () => {
  let fileId = 0;

  it('starts an export in the background and reports its progress up to done', async () => {
    const started = await injectAs(t.app, clerk, { method: 'POST', url: '/api/download/export', payload: EXPORT });
    expect(started.statusCode, started.body).toBe(200);
    fileId = json<{ id: number }>(started).id;
    const skuCount = Number((await t.database.db.selectFrom('sku').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    expect(skuCount).toBeGreaterThan(100);
    const seen = await waitUntilFinished(clerk, fileId);
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ status: 'done', rowsWritten: skuCount, rowsTotal: skuCount });
    expect(last.fileName).toMatch(/^masterdata-sku-\d{8}-\d{6}\.xlsx$/);
    expect(last.size).toBeGreaterThan(0);
    // Progress only grows.
    const written = seen.map((f) => f.rowsWritten);
    expect(written).toEqual([...written].sort((a, b) => a - b));
    // Kept for DOWNLOAD_DAYS days.
    const days = (Date.parse(last.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.9);
    expect(days).toBeLessThanOrEqual(3);
  });

  it('downloads the finished file: a workbook with every row, in order', async () => {
    const response = await injectAs(t.app, clerk, { method: 'POST', url: '/api/download/file', payload: { id: fileId } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const codes = (await t.database.db.selectFrom('sku').select('code').orderBy('code').execute()).map((r) => r.code);
    expect(sheet.rowCount).toBe(codes.length + 1);
    expect(sheet.getRow(2).getCell(1).value).toBe(codes[0]);
    expect(sheet.getRow(codes.length + 1).getCell(1).value).toBe(codes.at(-1));
  });

  it("does not show, download or delete another user's file", async () => {
    expect((await list(otherClerk)).map((f) => f.id)).not.toContain(fileId);
    const download = await injectAs(t.app, otherClerk, { method: 'POST', url: '/api/download/file', payload: { id: fileId } });
    expect(download.statusCode).toBe(404);
    const deletion = await injectAs(t.app, otherClerk, { method: 'POST', url: '/api/download/delete', payload: { id: fileId } });
    expect(deletion.statusCode).toBe(404);
    expect((await list(clerk)).map((f) => f.id)).toContain(fileId);
  });

  it('refuses an export of a page the caller may not view, and stores nothing', async () => {
    const response = await injectAs(t.app, noRight, { method: 'POST', url: '/api/download/export', payload: EXPORT });
    expect(response.statusCode).toBe(403);
    expect(await list(noRight)).toEqual([]);
    const unknownField = await injectAs(t.app, clerk, { method: 'POST', url: '/api/download/export', payload: { ...EXPORT, fields: ['nope'] } });
    expect(unknownField.statusCode).toBe(400);
  });

  it('deletes a file of the caller', async () => {
    const response = await injectAs(t.app, clerk, { method: 'POST', url: '/api/download/delete', payload: { id: fileId } });
    expect(response.statusCode).toBe(200);
    expect((await list(clerk)).map((f) => f.id)).not.toContain(fileId);
    expect((await injectAs(t.app, clerk, { method: 'POST', url: '/api/download/file', payload: { id: fileId } })).statusCode).toBe(404);
  });

  it('purges expired files with the job of the area', async () => {
    const id = json<{ id: number }>(await injectAs(t.app, clerk, { method: 'POST', url: '/api/download/export', payload: EXPORT })).id;
    await waitUntilFinished(clerk, id);
    await t.database.db.updateTable('download_file').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', id).execute();
    expect((await list(clerk)).map((f) => f.id)).not.toContain(id);
    const job = t.app.areas.job('download.purgeExpired');
    expect(job).toBeDefined();
    await job!.run({ db: t.database.db, params: {}, log: () => undefined, config: t.config, logger: t.app.log, attempt: 1, run: { id: 0, trigger: 'manual', scheduledFor: new Date() }, job: { id: 0, name: 'purge', createdBy: null }, events: t.app.events });
    expect(await t.database.db.selectFrom('download_file').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    expect(await purgeExpiredDownloads(t.database.db)).toBe(0);
  });
});
