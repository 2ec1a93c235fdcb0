import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page, Response } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { apiCall, apiSelection, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * Configured report acceptance in Chromium (1440x900): the administrator, as configurator, builds a
 * stock report on /userReport (stock by location with its SKU's description, a SKU parameter and the
 * quantity summed by owner) and publishes it for its project; a report template names it, is
 * previewed in the designer with the report's first rows as its sample, and is published. An
 * operator of the project runs it on /userGeneric with the SKU parameter, pages through more rows
 * than a page holds, exports xlsx (read back: every row and the quantity adding up to the group
 * total) and prints it through the template as PDF: the text shows the report's title and a
 * Chinese SKU description, and the barcode on the page decodes to the report's code. An operator
 * of another project neither sees the report nor may run it through the API.
 */
const VIEWPORT = { width: 1440, height: 900 };
const PASSWORD = 'Us3r!Passw0rd';
const CHINESE = '蓝色保温杯';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wms-report-acceptance-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Status {
  project: { id: number; code: string };
  warehouse: { id: number; code: string };
}

describe('configured report acceptance in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  const run = `${Date.now()}`.slice(-7);
  const prefix = `RA${run}`;
  const reportCode = `STOCK-${run}`;
  const reportName = `Stock by location ${run}`;
  const skuCount = 25;
  let token = '';
  const call = <T>(urlPath: string, body?: unknown) => apiCall<T>(e2e.server, token, urlPath, body);

  /** Chooses an option of an antd select found by its test id. */
  async function choose(page: Page, testId: string, title: string) {
    await page.getByTestId(testId).click();
    await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${title}"]`).click();
  }

  /** SKUs `<prefix>-01` .. `-25` of the first owner, the second described in Chinese, each received (quantity = its number) at A-01-2. */
  async function receiveStock(): Promise<{ ownerCode: string }> {
    const { _key: ownerId, code: ownerCode } = (await apiSelection<{ _key: number; code: string }>(e2e.server, token, 'masterdata', 'ogr'))[0];
    const codes = Array.from({ length: skuCount }, (_, i) => `${prefix}-${String(i + 1).padStart(2, '0')}`);
    for (const [i, code] of codes.entries()) {
      await call('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code, owner_id: ownerId, description: i === 1 ? CHINESE : `Item ${code}`, base_uom: 'EA' } });
    }
    const asn = await call<{ id: number }>('/asn/saveHeader', { ownerCode });
    await call('/asn/saveDetail', { asnId: asn.id, lines: codes.map((skuCode, i) => ({ skuCode, expectedQty: i + 1 })) });
    const lines = (await call<{ lines: Array<{ id: number }> }>('/asn/getDetail', { id: asn.id })).lines;
    expect(lines).toHaveLength(skuCount);
    await call('/inbound/batch/receive', { lines: lines.map((l, i) => ({ asnLineId: l.id, qty: i + 1, locationCode: 'A-01-2' })) });
    return { ownerCode };
  }

  /** A user of one project (and warehouse, when given) with the seeded Operator role. */
  async function operator(login: string, projectId: number, warehouseId?: number) {
    const roles = await call<{ rows: Array<{ id: number; name: string }> }>('/role/fetch', { pageSize: 100 });
    const role = roles.rows.find((r) => r.name === 'Operator')!;
    await call('/user/save', { loginAccount: login, displayName: login, password: PASSWORD, projectIds: [projectId], warehouseIds: warehouseId ? [warehouseId] : [], roleIds: [role.id] });
    return { loginAccount: login, password: PASSWORD };
  }

  const answerOf = (page: Page, urlEnd: string) => page.waitForResponse((r: Response) => r.url().endsWith(urlEnd) && r.request().method() === 'POST', { timeout: 60_000 });

  it('builds, publishes, runs, pages, exports and prints a report for one project only', async () => {
    token = await apiSignIn(e2e.server);
    const status = await call<Status>('/user/status');
    const { ownerCode } = await receiveStock();
    const total = (skuCount * (skuCount + 1)) / 2;

    // The configurator builds the report on /userReport.
    const admin = await signedInPage(e2e.browser, e2e.server, '/page/userReport', { viewport: VIEWPORT });
    try {
      await admin.getByTestId('report-new').click();
      await admin.getByTestId('report-code').fill(reportCode);
      await admin.getByTestId('report-name-en').fill(reportName);
      await admin.getByTestId('report-sql').fill(
        [
          'select s.code as sku, s.description, o.code as owner, l.code as location, b.on_hand_qty as qty',
          'from inventory_balance b',
          'join sku s on s.id = b.sku_id',
          'join owner o on o.id = b.owner_id',
          'join location l on l.id = b.location_id',
          "where b.on_hand_qty > 0 and (:sku is null or s.code like :sku || '%')",
          'order by s.code',
        ].join('\n'),
      );
      await admin.getByTestId('param-add').click();
      await admin.getByTestId('param-name-0').fill('sku');
      await admin.getByTestId('param-label-0').fill('SKU');
      const columns: Array<[string, string]> = [
        ['sku', 'SKU'],
        ['description', 'Description'],
        ['owner', 'Owner'],
        ['location', 'Location'],
        ['qty', 'Quantity'],
      ];
      for (const [i, [name, label]] of columns.entries()) {
        await admin.getByTestId('column-add').click();
        await admin.getByTestId(`column-name-${i}`).fill(name);
        await admin.getByTestId(`column-label-${i}`).fill(label);
      }
      await choose(admin, 'column-type-4', 'number');
      await choose(admin, 'report-group-by', 'owner');
      await admin.getByTestId('total-add').click();
      await choose(admin, 'total-column-0', 'qty');
      await admin.getByTestId('report-publish').click();
      await admin.locator('.wms-popup-ok').click();
      await admin.getByText('Published as version 1.').waitFor({ timeout: 60_000 });
      const configs = await call<Array<{ id: number; code: string; publishedVersion: number | null; assignments: { projectIds: number[] } }>>('/report/generic/configs', {});
      const report = configs.find((c) => c.code === reportCode)!;
      expect(report).toMatchObject({ publishedVersion: 1, assignments: { projectIds: [] } });

      // A report template naming the report: its fields are the report's data (`number`, a code128, is the report's code).
      const shipped = (await call<{ template: { schemas: Array<Array<Record<string, unknown>>> } & Record<string, unknown> }>('/template/shipped', { kind: 'report' })).template;
      const fields = shipped.schemas[0];
      const lines = fields.find((f) => f.name === 'lines')!;
      lines.head = ['SKU', 'Description', 'Owner', 'Location', 'Qty'];
      lines.headWidthPercentages = [20, 30, 20, 15, 15];
      const templateCode = `RPT-${run}`;
      const saved = await call<{ id: number }>('/template/save', { code: templateCode, kind: 'report', name: `Stock sheet ${run}`, template: shipped });

      // In the designer: the template prints the report, and previews with the report's first rows.
      await admin.goto(`${e2e.server.url}#/page/templateDesigner`);
      await choose(admin, 'template-pick', `${templateCode} - Stock sheet ${run} (Report)`);
      await admin.locator('[data-testid="template-designer"] *').first().waitFor({ timeout: 60_000 });
      await choose(admin, 'template-report', `${reportCode} - ${reportName}`);
      const sample = answerOf(admin, '/report/generic/print/sample');
      await admin.getByTestId('template-preview-report').click();
      const sampled = (await (await sample).json()) as { documents: Array<{ title: string; lines: string[][] }> };
      expect(sampled.documents[0].title).toBe(reportName);
      expect(sampled.documents[0].lines.length).toBeGreaterThan(0);
      await admin.getByTestId('template-preview').waitFor({ timeout: 60_000 });
      const kept = await call<{ reportId: number | null }>('/template/get', { id: saved.id });
      expect(kept.reportId).toBe(report.id);
      await admin.keyboard.press('Escape');
      await admin.getByTestId('template-preview').waitFor({ state: 'hidden' });
      await admin.getByRole('button', { name: 'Publish' }).click();
      await admin.locator('.wms-popup-ok').click();
      await admin.getByText('Published: version 1').waitFor({ timeout: 60_000 });

      // An operator of the project runs it.
      const projectB = await call<{ row: { _key: number | string } }>('/generic/adding', { moduleCode: 'masterdata', functionCode: 'project', record: { code: `PB${run}`, name: 'Other project', nav_layout: 'left' } });
      const operatorA = await operator(`rpt.a.${run}`, status.project.id, status.warehouse.id);
      const operatorB = await operator(`rpt.b.${run}`, Number(projectB.row._key));

      const page = await signedInPage(e2e.browser, e2e.server, '/page/userGeneric', { viewport: VIEWPORT, account: operatorA });
      try {
        await page.getByTestId('report-run').waitFor();
        await choose(page, 'report-select', reportName);
        await page.getByTestId('param-sku').fill(prefix);
        await page.getByTestId('report-search').click();
        const rows = page.locator('[data-testid="report-rows"] .ant-table-tbody tr.ant-table-row');
        await eventually(() => rows.count()).toBe(20);
        await page.getByText(`${skuCount} row(s)`).waitFor();
        expect(await rows.first().innerText()).toContain(`${prefix}-01`);
        const groups = page.locator('[data-testid="report-groups"] .ant-table-tbody tr.ant-table-row');
        await eventually(() => groups.count()).toBe(1);
        expect(await groups.first().innerText()).toMatch(new RegExp(`${ownerCode}\\s+${total}(\\.0+)?`));
        // Page 2 holds the rest.
        await page.getByTestId('report-run').locator('.ant-pagination-item-2').click();
        await eventually(() => rows.count()).toBe(skuCount - 20);
        expect(await rows.first().innerText()).toContain(`${prefix}-21`);

        // Export xlsx: a download, read back.
        const download = page.waitForEvent('download', { timeout: 60_000 });
        await page.getByTestId('report-export-xlsx').click();
        const file = path.join(dir, 'report.xlsx');
        await (await download).saveAs(file);
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.readFile(file);
        const sheet = workbook.worksheets[0];
        const header = (sheet.getRow(1).values as unknown[]).slice(1);
        expect(header).toEqual(['SKU', 'Description', 'Owner', 'Location', 'Quantity']);
        const data: unknown[][] = [];
        sheet.eachRow((row, n) => {
          if (n > 1) data.push((row.values as unknown[]).slice(1));
        });
        expect(data.map((r) => r[0])).toEqual(Array.from({ length: skuCount }, (_, i) => `${prefix}-${String(i + 1).padStart(2, '0')}`));
        expect(data[1][1]).toBe(CHINESE);
        expect(data.reduce((sum, r) => sum + Number(r[4]), 0)).toBe(total);

        // Print through the template: the PDF shows the title and the Chinese description, its barcode the report's code.
        const printed = answerOf(page, '/report/generic/print');
        await page.getByTestId('report-print').click();
        const answer = await printed;
        expect(answer.status()).toBe(200);
        expect(answer.headers()['content-type']).toBe('application/pdf');
        const frame = page.getByTestId('report-print-pdf');
        await frame.waitFor({ timeout: 60_000 });
        expect(await frame.getAttribute('src')).toMatch(/^blob:/);
        // The same print as the server answers the operator: read as text and as an image.
        const tokenA = await apiSignIn(e2e.server, operatorA);
        const again = await fetch(new URL('api/report/generic/print', e2e.server.url), {
          method: 'POST',
          headers: { authorization: `Bearer ${tokenA}`, 'content-type': 'application/json' },
          body: answer.request().postData() ?? '',
        });
        expect(again.status).toBe(200);
        const pdf = Buffer.from(await again.arrayBuffer());
        expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        const pdfFile = path.join(dir, 'report.pdf');
        fs.writeFileSync(pdfFile, pdf);
        const text = execFileSync('pdftotext', ['-enc', 'UTF-8', pdfFile, '-'], { encoding: 'utf8' });
        expect(text).toContain(reportName);
        expect(text).toContain(CHINESE);
        expect(text).toContain(`${prefix}-25`);
        execFileSync('pdftoppm', ['-r', '300', '-gray', '-f', '1', '-singlefile', '-png', pdfFile, path.join(dir, 'report')]);
        const decoded = execFileSync('zbarimg', ['-q', '--raw', path.join(dir, 'report.png')], { encoding: 'utf8' }).split('\n').filter(Boolean);
        expect(decoded).toContain(reportCode);
      } finally {
        await page.context().close();
      }

      // An operator of another project: not in the list, and the API refuses the report.
      const other = await signedInPage(e2e.browser, e2e.server, '/page/userGeneric', { viewport: VIEWPORT, account: operatorB });
      try {
        await other.getByText('No report is published for you.').waitFor({ timeout: 60_000 });
      } finally {
        await other.context().close();
      }
      const tokenB = await apiSignIn(e2e.server, operatorB);
      const listB = await apiCall<Array<{ id: number }>>(e2e.server, tokenB, '/report/generic/list', {});
      expect(listB.map((r) => r.id)).not.toContain(report.id);
      for (const [urlPath, body] of [
        ['/report/generic/run', { id: report.id, params: { sku: prefix } }],
        ['/report/generic/export', { id: report.id, format: 'xlsx' }],
        ['/report/generic/print', { id: report.id, templateId: saved.id }],
      ] as const) {
        const answer = await fetch(new URL(`api${urlPath}`, e2e.server.url), { method: 'POST', headers: { authorization: `Bearer ${tokenB}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expect(answer.status, urlPath).toBe(404);
      }
    } finally {
      await admin.context().close();
    }
  });
});
