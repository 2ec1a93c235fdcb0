import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUserAccount, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

/**
 * Support tickets (`/support` and the create-ticket screen; `/generic/support/*`): pickers limited
 * to the caller's grants, tickets seen by their requester (and by answerers of the project),
 * messages, close and reopen, a log entry for every change, and the reopen-ASN request (A01)
 * approved by an approver, which reopens the document through the owning area's reopener (the
 * inbound area's, for closed ASNs) in the same transaction.
 */
interface Ticket {
  id: number;
  number: string;
  type: string;
  status: string;
  requester: string;
  asnNumber: string | null;
  requestStatus: string | null;
  projectId: number;
}

let t: TestApp;
const ids = { org1: 0, org2: 0, prj1: 0, prj2: 0, prj3: 0 };
let alice: string;
let bob: string;
let answerer: string;
let approver: string;
let outsider: string;

const post = (token: string, url: string, payload: Record<string, unknown>) => injectAs(t.app, token, { method: 'POST', url: `/api/generic/support/${url}`, payload });
const get = (token: string, url: string) => injectAs(t.app, token, { method: 'GET', url: `/api/generic/support/${url}` });

async function send(token: string, extra: Record<string, unknown> = {}): Promise<Ticket> {
  const response = await post(token, 'sendSupport', { organizationId: ids.org1, projectId: ids.prj1, subject: 'Label printer down', message: 'Nothing prints since 9:00', ...extra });
  expect(response.statusCode, response.body).toBe(200);
  return json<Ticket>(response);
}

/** A real ASN of the inbound area (which reopens closed ASNs when a request is approved), in the project's first warehouse. */
async function insertReceipt(db: TestApp['database']['db'], projectId: number, number: string, status: string): Promise<void> {
  const warehouse = await db.selectFrom('warehouse').select('id').orderBy('id').executeTakeFirstOrThrow();
  const owner =
    (await db.selectFrom('owner').select('id').where('project_id', '=', projectId).executeTakeFirst()) ??
    (await db.insertInto('owner').values({ project_id: projectId, code: `OWN${projectId}`, name: 'Owner', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow());
  await db
    .insertInto('asn')
    .values({ project_id: projectId, warehouse_id: warehouse.id, owner_id: owner.id, asn_no: number, status: status === 'open' ? 'received' : status, created_by: 'test', updated_by: 'test' })
    .execute();
}

async function receiptStatus(db: TestApp['database']['db'], projectId: number, number: string): Promise<string | undefined> {
  const row = await db.selectFrom('asn').select('status').where('project_id', '=', projectId).where('asn_no', '=', number).executeTakeFirst();
  return row && (row.status === 'closed' ? 'closed' : 'open');
}

async function log(token: string, ticketId: number) {
  const response = await post(token, 'getLog', { ticketId });
  expect(response.statusCode, response.body).toBe(200);
  return json<Array<{ by: string; action: string; details: Record<string, unknown> | null }>>(response);
}

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  const org1 = await db.selectFrom('organization').select('id').executeTakeFirstOrThrow();
  const org2 = await db.insertInto('organization').values({ code: 'ORG2', name: 'Other organization', created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow();
  const prj1 = await db.selectFrom('project').select('id').where('code', '=', 'PRJ1').executeTakeFirstOrThrow();
  const project = (code: string, organization_id: number) =>
    db.insertInto('project').values({ organization_id, code, name: code, created_by: 'test', updated_by: 'test' }).returning('id').executeTakeFirstOrThrow();
  const prj2 = await project('SUP2', Number(org1.id));
  const prj3 = await project('SUP3', Number(org2.id));
  Object.assign(ids, { org1: Number(org1.id), org2: Number(org2.id), prj1: Number(prj1.id), prj2: Number(prj2.id), prj3: Number(prj3.id) });
  const clerk = ['support:view', 'support:add', 'support:edit'] as const;
  alice = (await createUserAccount(t, { loginAccount: 'alice', rights: [...clerk], projectCodes: ['PRJ1'] })).token;
  bob = (await createUserAccount(t, { loginAccount: 'bob', rights: [...clerk], projectCodes: ['PRJ1', 'SUP2'] })).token;
  answerer = (await createUserAccount(t, { loginAccount: 'helpdesk', rights: [...clerk, 'support.ticket:answer'], projectCodes: ['PRJ1'] })).token;
  approver = (await createUserAccount(t, { loginAccount: 'approver', rights: [...clerk, 'support.ticket:approve'], projectCodes: ['PRJ1'] })).token;
  outsider = (await createUserAccount(t, { loginAccount: 'outsider', rights: [...clerk, 'support.ticket:answer', 'support.ticket:approve'], projectCodes: ['SUP3'] })).token;
});
afterAll(() => t?.close());

describe('pickers', () => {
  it('offers only the organizations and projects the caller holds', async () => {
    const orgs = json<Array<{ id: number }>>(await get(alice, 'getOrgs'));
    expect(orgs.map((o) => o.id)).toEqual([ids.org1]);
    const projects = json<Array<{ id: number }>>(await get(bob, `getProjects?organizationId=${ids.org1}`));
    expect(projects.map((p) => p.id).sort()).toEqual([ids.prj1, ids.prj2].sort());
    expect(json<unknown[]>(await get(alice, `getProjects?organizationId=${ids.org2}`))).toEqual([]);
    const outsiderOrgs = json<Array<{ id: number }>>(await get(outsider, 'getOrgs'));
    expect(outsiderOrgs.map((o) => o.id)).toEqual([ids.org2]);
    const adminOrgs = json<Array<{ id: number }>>(await get(await signIn(t.app), 'getOrgs'));
    expect(adminOrgs.map((o) => o.id).sort()).toEqual([ids.org1, ids.org2].sort());
  });

  it('refuses a ticket for a project the caller does not hold, or of another organization', async () => {
    const foreign = await post(alice, 'sendSupport', { organizationId: ids.org1, projectId: ids.prj2, subject: 'x', message: 'y' });
    expect(foreign.statusCode).toBe(403);
    expect(json<{ code: string }>(foreign).code).toBe('OUT_OF_SCOPE');
    const mismatch = await post(bob, 'sendSupport', { organizationId: ids.org2, projectId: ids.prj2, subject: 'x', message: 'y' });
    expect(json<{ code: string }>(mismatch).code).toBe('OUT_OF_SCOPE');
    expect(await t.database.db.selectFrom('support_ticket').select('id').where('subject', '=', 'x').execute()).toEqual([]);
  });

  it('refuses invalid input with a 400, never a 500', async () => {
    for (const payload of [{}, { organizationId: ids.org1, projectId: ids.prj1, subject: ' ', message: 'y' }, { organizationId: 1.5, projectId: ids.prj1, subject: 's', message: 'm' }, { organizationId: ids.org1, projectId: ids.prj1, subject: 's', message: 'm', priority: 'asap' }]) {
      expect((await post(alice, 'sendSupport', payload)).statusCode).toBe(400);
    }
  });

  it('refuses callers without the support rights, which a role grants on the role screen', async () => {
    const { uid, token: nobody } = await createUserAccount(t, { loginAccount: 'nobody', projectCodes: ['PRJ1'] });
    expect((await get(nobody, 'getOrgs')).statusCode).toBe(403);
    expect((await post(nobody, 'sendSupport', { organizationId: ids.org1, projectId: ids.prj1, subject: 's', message: 'm' })).statusCode).toBe(403);
    const role = await injectAs(t.app, await signIn(t.app), {
      method: 'POST',
      url: '/api/role',
      payload: { name: 'Ticket filer', permissions: [{ module: 'support', view: true, add: true }], userIds: [uid] },
    });
    expect(role.statusCode, role.body).toBe(200);
    expect((await get(nobody, 'getOrgs')).statusCode).toBe(200);
    expect((await post(nobody, 'sendSupport', { organizationId: ids.org1, projectId: ids.prj1, subject: 'Granted', message: 'm' })).statusCode).toBe(200);
    expect((await post(nobody, 'close', { ticketId: 1 })).statusCode).toBe(403);
  });
});

describe('tickets', () => {
  it('creates a ticket with its first message and a log entry', async () => {
    const ticket = await send(alice, { priority: 'high', category: 'problem' });
    expect(ticket).toMatchObject({ type: 'GEN', status: 'open', requester: 'alice', projectId: ids.prj1 });
    expect(ticket.number).toMatch(/^SUP\d{7}$/);
    const detail = json<{ header: Ticket; messages: Array<{ author: string; text: string }> }>(await post(alice, 'getSupportDetailList', { ticketId: ticket.id }));
    expect(detail.header.number).toBe(ticket.number);
    const byLink = json<{ header: Ticket }>(await get(alice, ticket.number));
    expect(byLink.header.id).toBe(ticket.id);
    expect((await get(bob, ticket.number)).statusCode).toBe(404);
    expect((await get(alice, 'SUP9999999')).statusCode).toBe(404);
    expect((await get(alice, 'not-a-number')).statusCode).toBe(400);
    expect(detail.messages).toEqual([expect.objectContaining({ author: 'alice', text: 'Nothing prints since 9:00' })]);
    const entries = await log(alice, ticket.id);
    expect(entries).toEqual([expect.objectContaining({ by: 'alice', action: 'created', details: expect.objectContaining({ priority: 'high', category: 'problem' }) })]);
  });

  it("lists a user's own tickets only; another user's ticket answers as if it did not exist", async () => {
    const mine = await send(alice, { subject: 'Alice only' });
    const his = await send(bob, { subject: 'Bob only' });
    const aliceList = json<{ rows: Ticket[] }>(await post(alice, 'getSupportHeaderList', {}));
    expect(aliceList.rows.every((r) => r.requester === 'alice')).toBe(true);
    expect(aliceList.rows.map((r) => r.id)).toContain(mine.id);
    expect(aliceList.rows.map((r) => r.id)).not.toContain(his.id);
    for (const [url, payload] of [
      ['getSupportDetailList', { ticketId: his.id }],
      ['getLog', { ticketId: his.id }],
      ['message', { ticketId: his.id, message: 'hijack' }],
      ['close', { ticketId: his.id }],
      ['saveLog', { ticketId: his.id, note: 'peek' }],
    ] as const) {
      const response = await post(alice, url, payload);
      expect(response.statusCode, url).toBe(404);
      expect(json<{ code: string }>(response).code).toBe('NO_RECORD');
    }
    const stored = await t.database.db.selectFrom('support_ticket').select('status').where('id', '=', his.id).executeTakeFirstOrThrow();
    expect(stored.status).toBe('open');
    expect(await t.database.db.selectFrom('support_message').select('id').where('ticket_id', '=', his.id).execute()).toHaveLength(1);
  });

  it('lets an answerer see every ticket of his projects (not of others) and answer it', async () => {
    const ticket = await send(alice, { subject: 'For the helpdesk' });
    const other = await send(bob, { projectId: ids.prj2, subject: 'Second project' });
    const list = json<{ rows: Ticket[] }>(await post(answerer, 'getSupportHeaderList', { pageSize: 200 }));
    expect(list.rows.map((r) => r.id)).toContain(ticket.id);
    expect(list.rows.map((r) => r.id)).not.toContain(other.id);
    expect((await post(answerer, 'getSupportDetailList', { ticketId: other.id })).statusCode).toBe(404);
    expect((await post(outsider, 'getSupportDetailList', { ticketId: ticket.id })).statusCode).toBe(404);

    const answered = json<Ticket>(await post(answerer, 'message', { ticketId: ticket.id, message: 'Restart the spooler' }));
    expect(answered.status).toBe('answered');
    const reply = json<Ticket>(await post(alice, 'message', { ticketId: ticket.id, message: 'Still down' }));
    expect(reply.status).toBe('open');
    const detail = json<{ messages: Array<{ author: string; text: string }> }>(await post(alice, 'getSupportDetailList', { ticketId: ticket.id }));
    expect(detail.messages.map((m) => [m.author, m.text])).toEqual([
      ['alice', 'Nothing prints since 9:00'],
      ['helpdesk', 'Restart the spooler'],
      ['alice', 'Still down'],
    ]);
    const filtered = json<{ rows: Ticket[] }>(await post(answerer, 'getSupportHeaderList', { status: 'open', search: 'helpdesk' }));
    expect(filtered.rows.map((r) => r.id)).toEqual([ticket.id]);
  });

  it('closes and reopens a ticket, refuses messages while closed, and logs every change with who and what', async () => {
    const ticket = await send(alice, { subject: 'Lifecycle' });
    await post(answerer, 'message', { ticketId: ticket.id, message: 'Fixed' });
    const closed = await post(alice, 'close', { ticketId: ticket.id });
    expect(json<Ticket>(closed).status).toBe('closed');
    const again = await post(alice, 'close', { ticketId: ticket.id });
    expect(again.statusCode).toBe(409);
    expect(json<{ code: string }>(again).code).toBe('SUPPORT_TICKET_CLOSED');
    const late = await post(alice, 'message', { ticketId: ticket.id, message: 'one more thing' });
    expect(json<{ code: string }>(late).code).toBe('SUPPORT_TICKET_CLOSED');
    expect(json<Ticket>(await post(alice, 'reopen', { ticketId: ticket.id })).status).toBe('open');
    expect(json<{ code: string }>(await post(alice, 'reopen', { ticketId: ticket.id })).code).toBe('SUPPORT_TICKET_NOT_CLOSED');
    expect((await post(alice, 'saveLog', { ticketId: ticket.id, note: 'checked the spooler' })).statusCode).toBe(200);
    const entries = await log(answerer, ticket.id);
    expect(entries.map((e) => [e.by, e.action])).toEqual([
      ['alice', 'created'],
      ['helpdesk', 'message'],
      ['alice', 'closed'],
      ['alice', 'reopened'],
      ['alice', 'note'],
    ]);
    expect(entries[1].details).toMatchObject({ status: ['open', 'answered'] });
    expect(entries[2].details).toMatchObject({ status: ['answered', 'closed'] });
    expect(entries[4].details).toMatchObject({ note: 'checked the spooler' });
  });
});

describe('reopen-ASN request (A01)', () => {
  const request = (token: string, asnNumber: string) =>
    post(token, 'sendSupportA01ReopenASN', { organizationId: ids.org1, projectId: ids.prj1, asnNumber, message: 'Closed by mistake, two cartons missing' });

  beforeAll(async () => {
    await insertReceipt(t.database.db, ids.prj1, 'ASN0001', 'closed');
    await insertReceipt(t.database.db, ids.prj1, 'ASN0002', 'open');
    await insertReceipt(t.database.db, ids.prj3, 'ASN0003', 'closed');
  });

  it('is approved by an approver, which reopens the document in the same transaction and emits support.reopenApproved', async () => {
    const heard: unknown[] = [];
    const stop = t.app.events.on('support.reopenApproved', (payload) => void heard.push(payload));
    const ticket = json<Ticket>(await request(alice, 'ASN0001'));
    expect(ticket).toMatchObject({ type: 'A01', asnNumber: 'ASN0001', requestStatus: 'pending', status: 'open' });

    const approved = await post(approver, 'approveA01ReopenASN', { ticketId: ticket.id });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(json<Ticket>(approved)).toMatchObject({ requestStatus: 'approved', status: 'answered' });
    expect(await receiptStatus(t.database.db, ids.prj1, 'ASN0001')).toBe('open');
    expect(heard).toEqual([{ kind: 'asn', number: 'ASN0001', projectId: ids.prj1, ticketId: ticket.id }]);
    stop();
    const entries = await log(alice, ticket.id);
    expect(entries.map((e) => [e.by, e.action])).toEqual([
      ['alice', 'created'],
      ['approver', 'approved'],
    ]);
    // The approver was told of the request, the requester of the approval.
    const notices = await t.database.db
      .selectFrom('notification as n')
      .innerJoin('app_user as u', 'u.id', 'n.user_id')
      .select(['u.login_account', 'n.title_key'])
      .where('n.title_key', 'like', 'support.notice.%')
      .where('n.params', '@>', JSON.stringify({ number: ticket.number }))
      .orderBy('n.id')
      .execute();
    expect(notices.filter((n) => n.login_account !== 'admin')).toEqual([
      { login_account: 'approver', title_key: 'support.notice.reopenRequested' },
      { login_account: 'alice', title_key: 'support.notice.approved' },
    ]);
    const twice = await post(approver, 'approveA01ReopenASN', { ticketId: ticket.id });
    expect(json<{ code: string }>(twice).code).toBe('SUPPORT_NOT_PENDING_REQUEST');
  });

  it('is refused to the requester and to users without the verb; nothing changes', async () => {
    const ticket = json<Ticket>(await request(approver, 'ASN0001X'));
    const self = await post(approver, 'approveA01ReopenASN', { ticketId: ticket.id });
    expect(self.statusCode).toBe(403);
    expect(json<{ code: string }>(self).code).toBe('SUPPORT_SELF_APPROVAL');

    await t.database.db.updateTable('asn').set({ status: 'closed' }).where('asn_no', '=', 'ASN0001').execute();
    const other = json<Ticket>(await request(alice, 'ASN0001'));
    for (const token of [alice, answerer]) {
      const response = await post(token, 'approveA01ReopenASN', { ticketId: other.id });
      expect(response.statusCode).toBe(403);
      expect(json<{ code: string }>(response).code).toBe('FORBIDDEN');
    }
    // An approver of another project does not even see it.
    expect((await post(outsider, 'approveA01ReopenASN', { ticketId: other.id })).statusCode).toBe(404);
    expect(await receiptStatus(t.database.db, ids.prj1, 'ASN0001')).toBe('closed');
    const stored = await t.database.db.selectFrom('support_ticket').select('request_status').where('id', '=', other.id).executeTakeFirstOrThrow();
    expect(stored.request_status).toBe('pending');
  });

  it('refuses an ASN that is not closed or not in the ticket’s project, and rolls the approval back', async () => {
    const open = json<Ticket>(await request(alice, 'ASN0002'));
    const notClosed = await post(approver, 'approveA01ReopenASN', { ticketId: open.id });
    expect(notClosed.statusCode).toBe(409);
    expect(json<{ code: string; message: string }>(notClosed)).toMatchObject({ code: 'SUPPORT_DOCUMENT_NOT_CLOSED', message: 'ASN ASN0002 is not closed.' });
    const foreign = json<Ticket>(await request(alice, 'ASN0003'));
    const missing = await post(approver, 'approveA01ReopenASN', { ticketId: foreign.id });
    expect(json<{ code: string }>(missing).code).toBe('SUPPORT_DOCUMENT_NOT_FOUND');
    expect(await receiptStatus(t.database.db, ids.prj3, 'ASN0003')).toBe('closed');
    const stored = await t.database.db.selectFrom('support_ticket').select(['id', 'request_status']).where('id', 'in', [open.id, foreign.id]).orderBy('id').execute();
    expect(stored.map((s) => s.request_status)).toEqual(['pending', 'pending']);
    expect((await log(alice, open.id)).map((e) => e.action)).toEqual(['created']);
  });

  it('refuses to approve a plain ticket', async () => {
    const ticket = await send(alice, { subject: 'Plain' });
    expect(json<{ code: string }>(await post(approver, 'approveA01ReopenASN', { ticketId: ticket.id })).code).toBe('SUPPORT_NOT_PENDING_REQUEST');
  });
});
