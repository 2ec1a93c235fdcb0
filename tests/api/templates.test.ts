import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUserAccount, injectAs, json, signIn, type TestApp } from '../helpers/app.js';
import { orderCalls, outboundFixture, stock, type OutboundFixture } from '../helpers/outbound.js';

/**
 * Document templates through the API (docs/templates.md): a configurator saves a pdfme template
 * (refused with the field named when it is wrong), publishes versions, copies it to a project it
 * holds; another project's user never sees it; the preview renders text in Chinese, Thai and
 * Korean with barcodes; the pick list prints with the shipped template until a changed one is
 * published, and then with it; .jrxml files are stored and given back byte for byte, bad XML refused.
 */

interface Actor {
  uid: number;
  token: string;
}
type Json = Record<string, unknown>;

const tag = `T${crypto.randomBytes(3).toString('hex').toUpperCase()}`;
let t: TestApp;
let admin: string;
let config: Actor;
let operator: Actor;
let other: Actor;
let prj2 = 0;
let templateId = 0;

const post = (token: string, url: string, payload: object = {}) => injectAs(t.app, token, { method: 'POST', url: `/api${url}`, payload });

function pdfToText(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tpl-'));
  try {
    fs.writeFileSync(path.join(dir, 'doc.pdf'), pdf);
    return execFileSync('pdftotext', ['-enc', 'UTF-8', path.join(dir, 'doc.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function shipped(kind: string): Promise<{ schemas: Json[][] } & Json> {
  const answer = await post(config.token, '/template/shipped', { kind });
  expect(answer.statusCode, answer.body).toBe(200);
  return json<{ template: { schemas: Json[][] } & Json }>(answer).template;
}

const staticText = (name: string, content: string, y = 280) => ({ name, type: 'text', readOnly: true, content, position: { x: 10, y }, width: 150, height: 8, fontSize: 10 });

function multipart(fileName: string, content: Buffer) {
  const boundary = `----tpl${crypto.randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/xml\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signIn(t.app);
  const db = t.database.db;
  const org = await db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
  prj2 = (await db.insertInto('project').values({ organization_id: org.id, code: `P2${tag}`, name: 'B', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow()).id;
  const design = ['template.design:view', 'template.design:add', 'template.design:edit', 'template.design:publish'] as const;
  config = await createUserAccount(t, { loginAccount: `tcfg-${tag}`, rights: [...design, 'template.jrxml:view', 'template.jrxml:add', 'template.jrxml:delete'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  operator = await createUserAccount(t, { loginAccount: `top-${tag}`, rights: ['template.design:view'], projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] });
  other = await createUserAccount(t, { loginAccount: `toth-${tag}`, rights: [...design], projectCodes: [`P2${tag}`], warehouseCodes: ['WH1'] });
});
afterAll(() => t?.close());

describe('document templates', () => {
  it('refuses a wrong template JSON with the field named, never a 500', async () => {
    const template = await shipped('deliveryNote');
    const cases: Array<[unknown, string]> = [
      ['not a template', 'template'],
      [{ ...template, schemas: [[{ ...template.schemas[0][0], type: 'hologram' }]] }, 'template.schemas.0.0.type'],
      [{ ...template, schemas: [[{ ...template.schemas[0][0], position: { x: 'left' } }]] }, 'template.schemas.0.0.position'],
      [{ ...template, schemas: [[template.schemas[0][0], template.schemas[0][0]]] }, 'template.schemas.0.1.name'],
      [{ ...template, schemas: [[{ ...template.schemas[0][0], fontName: 'Comic' }]] }, 'template.schemas.0.0.fontName'],
      [{ ...template, basePdf: 'https://example.com/x.pdf' }, 'template.basePdf'],
      [{ ...template, schemas: [] }, 'template.schemas'],
    ];
    for (const [bad, field] of cases) {
      const answer = await post(config.token, '/template/save', { code: `DN-${tag}`, kind: 'deliveryNote', name: 'Delivery note', template: bad });
      expect(answer.statusCode, answer.body).toBe(400);
      expect(json<{ details: Array<{ field: string }> }>(answer).details.map((d) => d.field)).toContain(field);
    }
    expect((await post(config.token, '/template/save', { code: 'bad code!', kind: 'deliveryNote', name: 'x', template })).statusCode).toBe(400);
    expect((await post(config.token, '/template/save', { code: `DN-${tag}`, kind: 'sticker', name: 'x', template })).statusCode).toBe(400);
    expect(json<unknown[]>(await post(config.token, '/template/list'))).not.toContainEqual(expect.objectContaining({ code: `DN-${tag}` }));
  });

  it('saves a draft, publishes numbered versions and lists them; rights are checked', async () => {
    const template = await shipped('deliveryNote');
    template.schemas[0].push(staticText('footer', `Footer ${tag}`), staticText('footerKr', '배송 메모', 288));
    expect((await post(operator.token, '/template/save', { code: `DN-${tag}`, kind: 'deliveryNote', name: 'Delivery note', template })).statusCode).toBe(403);
    const saved = await post(config.token, '/template/save', { code: `DN-${tag}`, kind: 'deliveryNote', name: 'Delivery note', template });
    expect(saved.statusCode, saved.body).toBe(200);
    templateId = json<{ id: number }>(saved).id;
    expect(json<Json>(saved)).toMatchObject({ code: `DN-${tag}`, kind: 'deliveryNote', publishedVersion: null });
    const taken = await post(config.token, '/template/save', { code: `DN-${tag}`, kind: 'deliveryNote', name: 'Again', template });
    expect(taken.statusCode).toBe(409);
    expect(json<{ code: string }>(taken).code).toBe('TEMPLATE_CODE_TAKEN');
    // Not published yet: the published version cannot be previewed.
    expect(json<{ code: string }>(await post(config.token, '/report/generic/print/preview', { templateId })).code).toBe('TEMPLATE_NOT_PUBLISHED');
    expect((await post(operator.token, '/template/publish', { id: templateId })).statusCode).toBe(403);
    expect(json<{ version: number }>(await post(config.token, '/template/publish', { id: templateId })).version).toBe(1);
    expect(json<{ version: number }>(await post(config.token, '/template/publish', { id: templateId })).version).toBe(2);
    const versions = json<Array<{ version: number; current: boolean }>>(await post(config.token, '/template/versions', { id: templateId }));
    expect(versions.map((v) => [v.version, v.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(json<Json[]>(await post(operator.token, '/template/list')).map((r) => r.code)).toContain(`DN-${tag}`);
  });

  it("keeps a project's templates from another project's users, and copies only to a project the caller holds", async () => {
    expect((await post(other.token, '/template/get', { id: templateId })).statusCode).toBe(404);
    expect((await post(other.token, '/template/versions', { id: templateId })).statusCode).toBe(404);
    expect((await post(other.token, '/report/generic/print/preview', { templateId })).statusCode).toBe(404);
    expect(json<Json[]>(await post(other.token, '/template/list')).map((r) => r.code)).not.toContain(`DN-${tag}`);
    const refused = await post(config.token, '/template/copy', { id: templateId, projectId: prj2 });
    expect(refused.statusCode).toBe(403);
    const copied = await post(admin, '/template/copy', { id: templateId, projectId: prj2 });
    expect(copied.statusCode, copied.body).toBe(200);
    const listed = json<Array<Json & { id: number }>>(await post(other.token, '/template/list')).find((r) => r.code === `DN-${tag}`);
    expect(listed).toMatchObject({ kind: 'deliveryNote', publishedVersion: null });
    const copy = json<{ draft: { schemas: Json[][] } }>(await post(other.token, '/template/get', { id: listed!.id }));
    expect(copy.draft.schemas[0].map((s) => s.name)).toContain('footer');
  });

  it('renders the published template with text in Chinese, Thai and Korean, a code128 and a table', async () => {
    const answer = await post(operator.token, '/report/generic/print/preview', {
      templateId,
      documents: [{ title: `送货单 ${tag}`, printed: 'ใบส่งของ', number: `DN${tag}`, lines: [['1', `SKU-${tag}`, '苹果 10kg', '5']] }],
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    const text = pdfToText(answer.rawPayload);
    expect(text).toContain(`送货单 ${tag}`);
    expect(text).toContain('ใบส่งของ');
    expect(text).toContain('배송 메모');
    expect(text).toContain('苹果 10kg');
    expect(text).toContain(`Footer ${tag}`);
    // A draft preview needs the edit right; a barcode value it cannot draw is a 400, not a 500.
    expect((await post(operator.token, '/report/generic/print/preview', { templateId, draft: true })).statusCode).toBe(403);
    const template = await shipped('cartonLabel');
    template.schemas[0] = template.schemas[0].map((s) => (s.name === 'barcode' ? { ...s, type: 'ean13' } : s));
    const saved = await post(config.token, '/template/save', { code: `CL-${tag}`, kind: 'cartonLabel', name: 'Carton', template });
    expect(saved.statusCode, saved.body).toBe(200);
    const bad = await post(config.token, '/report/generic/print/preview', { templateId: json<{ id: number }>(saved).id, draft: true, documents: [{ barcode: 'not a number' }] });
    expect([200, 400], bad.body).toContain(bad.statusCode);
    expect((await post(config.token, '/report/generic/print/preview', {})).statusCode).toBe(400);
  });
});

describe('the pick list prints through its template', () => {
  let f: OutboundFixture;
  let soId = 0;
  beforeAll(async () => {
    f = await outboundFixture(t.database.db, tag, 1);
    await stock(t.database.db, f, f.skuIds[0], f.locationIds[1], 20);
    const orders = orderCalls(t.app, admin, t.database.db);
    soId = await orders.enterOnPages({ order_no: `SO-${tag}`, owner_id: f.ownerId, required_ship_date: '2030-02-15' }, [{ skuId: f.skuIds[0], qty: 4 }]);
    await orders.allocate(soId);
  });
  const printed = async () => {
    const answer = await injectAs(t.app, admin, { method: 'GET', url: `/api/pick/list.pdf?soId=${soId}` });
    expect(answer.statusCode, answer.body).toBe(200);
    // Without spaces and hyphens: a table cell wraps a long code where it likes.
    return pdfToText(answer.rawPayload).replace(/[\s-]+/g, '');
  };

  it('a published change of the pick-list template shows on the next printed pick list, with no restart', async () => {
    const before = await printed();
    expect(before).toContain(`SKU${tag}0`);
    expect(before).toContain(`SO${tag}/1`);
    expect(before).not.toContain(`Changed${tag}`);
    const template = await shipped('pickList');
    template.schemas[0].push(staticText('note', `Changed ${tag} 已更改`));
    const saved = await post(config.token, '/template/save', { code: `PL-${tag}`, kind: 'pickList', name: 'Pick list', template });
    expect(saved.statusCode, saved.body).toBe(200);
    // A draft changes nothing printed.
    expect(await printed()).not.toContain(`Changed${tag}`);
    expect((await post(config.token, '/template/publish', { id: json<{ id: number }>(saved).id })).statusCode).toBe(200);
    const after = await printed();
    expect(after).toContain(`Changed${tag}已更改`);
    expect(after).toContain(`SKU${tag}0`);
  });
});

describe('jrxml files', () => {
  const jrxml = Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<!-- ${tag} -->\n<jasperReport xmlns="http://jasperreports.sourceforge.net/jasperreports" name="pick_${tag}">\n  <title><band height="20"><staticText><reportElement x="0" y="0" width="100" height="20"/><text><![CDATA[拣货单 <b>]]></text></staticText></band></title>\n</jasperReport>\n`,
  );
  const upload = (token: string, name: string, content: Buffer) => injectAs(t.app, token, { method: 'POST', url: '/api/template/jrxml/upload', ...multipart(name, content) });

  it('stores an upload and gives it back byte for byte', async () => {
    const stored = await upload(config.token, `pick-${tag}.jrxml`, jrxml);
    expect(stored.statusCode, stored.body).toBe(200);
    const id = json<{ id: number }>(stored).id;
    expect(json<Json[]>(await post(config.token, '/template/jrxml/list'))).toContainEqual(expect.objectContaining({ id, fileName: `pick-${tag}.jrxml`, size: jrxml.length }));
    const back = await post(config.token, '/template/jrxml/download', { id });
    expect(back.statusCode).toBe(200);
    expect(Buffer.compare(back.rawPayload, jrxml)).toBe(0);
    expect((await post(other.token, '/template/jrxml/download', { id })).statusCode).toBe(403);
    expect((await upload(operator.token, `x-${tag}.jrxml`, jrxml)).statusCode).toBe(403);
  });

  it('refuses bad XML, another root, another file name and a file over the limit', async () => {
    for (const [name, content] of [
      [`bad-${tag}.jrxml`, Buffer.from('<jasperReport><band></jasperReport>')],
      [`bad-${tag}.jrxml`, Buffer.from('<jasperReport>< /jasperReport>')],
      [`root-${tag}.jrxml`, Buffer.from('<report></report>')],
      [`two-${tag}.jrxml`, Buffer.from('<jasperReport/><jasperReport/>')],
      [`name-${tag}.xml`, jrxml],
    ] as const) {
      const answer = await upload(config.token, name, content);
      expect(answer.statusCode, `${name}: ${answer.body}`).toBe(400);
      expect(json<{ code: string }>(answer).code).toBe('JRXML_INVALID');
    }
    const big = Buffer.concat([Buffer.from('<jasperReport>'), Buffer.alloc(1024 * 1024, 'a'), Buffer.from('</jasperReport>')]);
    expect((await upload(config.token, `big-${tag}.jrxml`, big)).statusCode).toBe(413);
    expect(json<Json[]>(await post(config.token, '/template/jrxml/list')).map((r) => r.fileName)).not.toContain(`bad-${tag}.jrxml`);
  });
});
