import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUserAccount, injectAs, json, type TestApp } from '../helpers/app.js';

/**
 * Messages with files on a support ticket (/support): the files are stored through
 * the attachment area with the message, in one transaction, within the attachment cap (spec
 * section 5), listed on the ticket and downloaded byte for byte by those who may see the ticket;
 * anyone else finds nothing.
 */

const LIMIT_MB = 1;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5e1c1e40000000049454e44ae426082', 'hex');

let t: TestApp;
let alice: string;
let bob: string;
let helpdesk: string;
let prj1 = 0;
let org1 = 0;

function multipart(fields: Record<string, string>, files: Array<{ name: string; content: Buffer }>) {
  const boundary = '----wms-support-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const file of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-language': 'en' } };
}

const post = (token: string, url: string, payload: Record<string, unknown>) => injectAs(t.app, token, { method: 'POST', url: `/api/generic/support/${url}`, payload });
const sendWithFiles = (token: string, fields: Record<string, string>, files: Array<{ name: string; content: Buffer }>) =>
  injectAs(t.app, token, { method: 'POST', url: '/api/generic/support/messageWithFiles', ...multipart(fields, files) });
const attachmentsOf = async (token: string, ticketId: number) =>
  json<{ items: { id: number; messageId: number; fileName: string; contentType: string; size: number }[] }>(await post(token, 'getAttachments', { ticketId })).items;

beforeAll(async () => {
  t = await buildTestApp({ ATTACHMENT_LIMIT_MB: String(LIMIT_MB) });
  const db = t.database.db;
  org1 = Number((await db.selectFrom('organization').select('id').executeTakeFirstOrThrow()).id);
  prj1 = Number((await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow()).id);
  const clerk = ['support:view', 'support:add', 'support:edit'] as const;
  alice = (await createUserAccount(t, { loginAccount: 'alice', rights: [...clerk], projectCodes: ['PRJ1'] })).token;
  bob = (await createUserAccount(t, { loginAccount: 'bob', rights: [...clerk], projectCodes: ['PRJ1'] })).token;
  helpdesk = (await createUserAccount(t, { loginAccount: 'helpdesk', rights: [...clerk, 'support.ticket:answer'], projectCodes: ['PRJ1'] })).token;
});
afterAll(() => t?.close());

async function ticket(): Promise<number> {
  const response = await post(alice, 'sendSupport', { organizationId: org1, projectId: prj1, subject: 'Damaged pallet', message: 'See the photo' });
  expect(response.statusCode, response.body).toBe(200);
  return json<{ id: number }>(response).id;
}

async function messageCount(ticketId: number): Promise<number> {
  return Number((await t.database.db.selectFrom('support_message').select((eb) => eb.fn.countAll<string>().as('n')).where('ticket_id', '=', ticketId).executeTakeFirstOrThrow()).n);
}

describe('support messages with attachments', () => {
  it('stores the files with the message, lists them on the ticket and downloads them byte for byte', async () => {
    const ticketId = await ticket();
    const csv = Buffer.from('sku,qty\nAC-1,3\n');
    const sent = await sendWithFiles(alice, { ticketId: String(ticketId), message: 'Photo and counts attached' }, [
      { name: 'pallet.png', content: PNG },
      { name: '../counts.csv', content: csv },
    ]);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(json(sent)).toEqual({ ticketId, files: 2 });
    const detail = json<{ messages: { id: number; text: string }[] }>(await post(alice, 'getSupportDetailList', { ticketId }));
    const message = detail.messages.find((m) => m.text === 'Photo and counts attached');
    expect(message).toBeDefined();

    const files = await attachmentsOf(alice, ticketId);
    expect(files.map((f) => f.messageId)).toEqual([message!.id, message!.id]);
    expect(files.map((f) => [f.fileName, f.contentType, f.size])).toEqual([
      ['pallet.png', 'image/png', PNG.length],
      ['counts.csv', expect.stringContaining('text/'), csv.length],
    ]);
    const png = await post(alice, 'downloadAttachment', { id: files[0].id });
    expect(png.statusCode).toBe(200);
    expect(Buffer.compare(png.rawPayload, PNG)).toBe(0);
    // The help desk answers tickets of the project: it sees and downloads them too.
    expect((await attachmentsOf(helpdesk, ticketId)).map((f) => f.id)).toEqual(files.map((f) => f.id));
    expect(Buffer.compare((await post(helpdesk, 'downloadAttachment', { id: files[1].id })).rawPayload, csv)).toBe(0);
  });

  it('refuses another user who may not see the ticket: neither the list nor the file', async () => {
    const ticketId = await ticket();
    expect((await sendWithFiles(alice, { ticketId: String(ticketId), message: 'Label' }, [{ name: 'label.png', content: PNG }])).statusCode).toBe(200);
    const [file] = await attachmentsOf(alice, ticketId);
    const list = await post(bob, 'getAttachments', { ticketId });
    expect(list.statusCode).toBe(404);
    const download = await post(bob, 'downloadAttachment', { id: file.id });
    expect(download.statusCode).toBe(404);
    expect(json(download)).toMatchObject({ code: 'NO_RECORD' });
    // Nor can he add files to it.
    expect((await sendWithFiles(bob, { ticketId: String(ticketId), message: 'mine' }, [{ name: 'x.png', content: PNG }])).statusCode).toBe(404);
    // An attachment of another area is not a support file.
    expect((await post(alice, 'downloadAttachment', { id: 999_999 })).statusCode).toBe(404);
  });

  it('refuses files over the cap with the spec message and stores neither message nor file', async () => {
    const ticketId = await ticket();
    const before = await messageCount(ticketId);
    const big = Buffer.alloc(LIMIT_MB * 1024 * 1024 + 10, 0x41);
    const response = await sendWithFiles(alice, { ticketId: String(ticketId), message: 'Too big' }, [{ name: 'big.txt', content: big }]);
    expect(response.statusCode).toBe(413);
    expect(json(response)).toMatchObject({ code: 'ATTACHMENT_TOTAL_TOO_LARGE', message: 'The upload exceeds the size limit: uploaded attachments must total at most 1 MB.' });
    // Two files together over the cap.
    const half = Buffer.alloc(600 * 1024, 0x42);
    const twice = await sendWithFiles(alice, { ticketId: String(ticketId), message: 'Two halves' }, [
      { name: 'a.txt', content: half },
      { name: 'b.txt', content: half },
    ]);
    expect(twice.statusCode).toBe(413);
    expect(await messageCount(ticketId)).toBe(before);
    expect(await attachmentsOf(alice, ticketId)).toEqual([]);
  });

  it('refuses a message without text or ticket with a 400', async () => {
    const ticketId = await ticket();
    expect((await sendWithFiles(alice, { ticketId: String(ticketId), message: ' ' }, [{ name: 'a.png', content: PNG }])).statusCode).toBe(400);
    expect((await sendWithFiles(alice, { ticketId: 'x', message: 'hi' }, [])).statusCode).toBe(400);
    expect((await injectAs(t.app, alice, { method: 'POST', url: '/api/generic/support/messageWithFiles', payload: { ticketId } })).statusCode).toBe(415);
  });
});
