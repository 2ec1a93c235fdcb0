import { describe, expect, it } from 'vitest';
import { apiCall, apiSelection, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';
import { rfEnter, rfReady, rfStep } from '../helpers/rf-flow-e2e.js';
import { ledgerDays } from '../helpers/ledger-days.js';

/**
 * Short picks on the handheld tab of /pick, the handheld runtime's pick function (360x640, keyboard
 * only). First one that finds the rest elsewhere: the picker finds 1 of 4 in the early lot's
 * location, gives the reason, and Enter takes the default "Find it elsewhere"; the rest is allocated
 * from the late lot's location, a new task appears and is picked, the order is picked, and the short
 * location's stock is held, not picked again. The picker reads exactly what was held (SKU, lot,
 * location, quantity) and the count that settles it; the supervisor of the warehouse is notified.
 * Then one that gives the rest back although the SKU is free elsewhere: the rest is unallocated
 * (ledger), no task is made, nothing is held, and the order stays partly picked.
 */
const run = Date.now().toString(36).toUpperCase();
const SUPERVISOR = { loginAccount: `short-supervisor-${run.toLowerCase()}`, password: 'Sh0rt!Passw0rd' };
const SKU = `E2E-SHORT-${run}`;
const ORDER = `E2E-SHORT-SO-${run}`;

describe('short pick with re-allocation on the handheld in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);

  const selection = <T>(moduleCode: string, functionCode: string, rules: unknown[] = []) => apiSelection<T>(e2e.server, token, moduleCode, functionCode, rules);

  it('short picks, finds the rest in another location with Enter and picks it there; another gives the rest back', async () => {
    token = await apiSignIn(e2e.server);
    // A supervisor of the warehouse (the seeded Supervisor role approves counts).
    const role = (await selection<{ _key: number; name: string }>('identity', 'role', [{ field: 'name', operator: '=', value: 'Supervisor' }]))[0];
    await call('/user/save', {
      loginAccount: SUPERVISOR.loginAccount,
      displayName: 'Short supervisor',
      password: SUPERVISOR.password,
      organizationIds: [1],
      projectIds: [1],
      warehouseIds: [1],
      defaultProjectId: 1,
      defaultWarehouseId: 1,
      roleIds: [role._key],
    });
    const owner = (await selection<{ _key: number; code: string }>('masterdata', 'ogr'))[0];
    const sku = (await call<{ row: { _key: number; code: string } }>('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: SKU, owner_id: owner._key, description: 'Short pick item', base_uom: 'EA' } })).row;
    await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soRule', record: { owner_id: owner._key, sku_id: sku._key, strategy: 'fefo', min_shelf_life_days: 0, pick_face_first: false, active: true } });

    // 4 of an early lot in A-02-2 (taken first by FEFO), 10 of a late lot in A-01-2.
    const asn = await call<{ id: number }>('/asn/saveHeader', { ownerCode: owner.code });
    await call('/asn/saveDetail', {
      asnId: asn.id,
      lines: [
        { skuCode: SKU, expectedQty: 10, lotNo: 'LATE', expiryDate: '2031-06-30' },
        { skuCode: SKU, expectedQty: 4, lotNo: 'EARLY', expiryDate: '2030-06-30' },
      ],
    });
    const asnLines = (await call<{ lines: { id: number; lot_no: string }[] }>('/asn/getDetail', { id: asn.id })).lines;
    await call('/inbound/batch/receive', {
      lines: [
        { asnLineId: asnLines.find((l) => l.lot_no === 'LATE')!.id, qty: 10, locationCode: 'A-01-2', lotNo: 'LATE', expiryDate: '2031-06-30' },
        { asnLineId: asnLines.find((l) => l.lot_no === 'EARLY')!.id, qty: 4, locationCode: 'A-02-2', lotNo: 'EARLY', expiryDate: '2030-06-30' },
      ],
    });

    const header = (await call<{ row: { _key: number } }>('/generic/adding', {
      moduleCode: 'outbound',
      functionCode: 'so',
      record: { order_no: ORDER, owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-03-01', carrier_code: 'E2E-SHORT' },
    })).row;
    await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soDetail', record: { so_id: header._key, sku_id: sku._key, qty: '4' } });
    await call('/generic/behavior', { moduleCode: 'outbound', functionCode: 'so', behaviour: 'allocate', keys: [header._key], inputs: {} });
    const made = await call<{ tasks: Array<{ id: number; location_code: string; lot_no: string; qty: string }> }>('/so/pick', { soId: header._key });
    expect(made.tasks.map((x) => [x.location_code, x.lot_no, Number(x.qty)])).toEqual([['A-02-2', 'EARLY', 4]]);
    const [task] = made.tasks;

    // /pick on a handheld opens its handheld tab: the runtime's pick function, no other offered.
    const handheld = await signedInPage(e2e.browser, e2e.server, '/page/pick', { viewport: { width: 360, height: 640 } });
    await rfReady(handheld, `SHORT-${run}`);
    expect(await handheld.getByTestId('rf-functions').count()).toBe(0);
    expect(await handheld.getByTestId('rf-flow').locator('h4').first().innerText()).toBe('Handheld: Pick');
    const feedback = handheld.getByTestId('handheld-feedback');
    const step = () => rfStep(handheld);

    // Only 1 found: short, with a reason; then the choice, "Find it elsewhere" focused.
    await rfEnter(handheld, ORDER, 'location');
    await rfEnter(handheld, 'A-02-2', 'sku');
    await rfEnter(handheld, SKU, 'qty');
    await rfEnter(handheld, '1', 'reason');
    await eventually(() => feedback.innerText()).toContain('3 short');
    await rfEnter(handheld, 'Not found', 'rest');
    const elsewhere = handheld.getByTestId('rf-choice-elsewhere');
    const giveBack = handheld.getByTestId('rf-choice-giveBack');
    await expect.poll(() => elsewhere.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await handheld.getByTestId('rf-choices').innerText()).toContain('3 short. Look for the rest in another location?');
    expect(await elsewhere.innerText()).toBe('Find it elsewhere');
    await expect.poll(() => giveBack.isVisible()).toBe(true);
    // The Enter of the reason did not choose by itself: the task is still open, nothing picked.
    await handheld.waitForTimeout(300);
    expect(await step()).toBe('rest');
    expect((await call<{ tasks: Array<{ id: number; picked_qty: string }> }>('/pick/tasks', { soId: header._key, openOnly: true })).tasks).toMatchObject([{ id: task.id, picked_qty: '0.0000' }]);
    // Both choices fit the handheld's width.
    const box = await giveBack.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    await handheld.keyboard.press('Enter');
    await eventually(step).toBe('tote');
    await rfEnter(handheld, 'TOTE-SHORT', 'location');
    await eventually(() => feedback.innerText()).toContain('Found 3 elsewhere: 1 new pick task(s).');
    expect(await feedback.getAttribute('data-tone')).toBe('warning');
    // The picker is told what was held at the short location and which count settles it.
    const ticket = (await selection<{ ticket_no: string; status: string }>('inventory', 'cycleCount', [{ field: 'status', operator: '=', value: 'open' }])).map((x) => x.ticket_no);
    const heldText = new RegExp(`Held 3 of ${SKU}, lot EARLY, at A-02-2: nobody takes it until count (\\S+) is approved\\. Your supervisor has been told\\.$`);
    await eventually(() => feedback.innerText()).toMatch(heldText);
    const ticketNo = heldText.exec(await feedback.innerText())![1];
    expect(ticket).toContain(ticketNo);
    const heldBox = await feedback.boundingBox();
    expect(heldBox!.x + heldBox!.width).toBeLessThanOrEqual(360);
    // The supervisor's bell has it, with the order and the count to open.
    const supervisorToken = await apiSignIn(e2e.server, SUPERVISOR);
    const notices = (await apiCall<{ items: Array<{ title: string; body: string; link: string }> }>(e2e.server, supervisorToken, '/notification/latest')).items;
    expect(notices).toContainEqual(
      expect.objectContaining({ title: `Short pick: 3 of ${SKU} held at A-02-2`, link: `cycleCount?ticketNo=${ticketNo}`, body: expect.stringContaining(`picking order ${ORDER} `) }),
    );

    // The new task, in the late lot's location: the handheld stays on the order and picks it with the keyboard.
    const open = (await call<{ tasks: Array<{ id: number; order_no: string; location_code: string; qty: string; status: string }> }>('/pick/tasks', { soId: header._key, openOnly: true })).tasks;
    expect(open.map((x) => [x.location_code, Number(x.qty)])).toEqual([['A-01-2', 3]]);
    expect(await handheld.getByTestId('rf-task').innerText()).toContain(`A-01-2 · ${SKU} · Pick 3`);
    await rfEnter(handheld, 'A-01-2', 'sku');
    await rfEnter(handheld, SKU, 'qty');
    await rfEnter(handheld, '3', 'tote');
    await rfEnter(handheld, 'TOTE-SHORT', 'search');
    await eventually(() => feedback.getAttribute('data-tone')).toBe('success');
    await eventually(() => feedback.innerText()).toContain(ORDER);

    // The order is picked; the early location's 3 are held, nothing allocated anywhere.
    const order = (await selection<{ status: string }>('outbound', 'so', [{ field: 'order_no', operator: '=', value: ORDER }]))[0];
    expect(order.status).toBe('picked');
    const balances = await selection<{ location_code: string; lot_no: string; on_hand_qty: string; allocated_qty: string; picked_qty: string; held_qty: string }>('inventory', 'balance', [
      { field: 'sku_code', operator: '=', value: SKU },
    ]);
    const early = balances.find((b) => b.location_code === 'A-02-2')!;
    expect([Number(early.on_hand_qty), Number(early.allocated_qty), Number(early.held_qty)]).toEqual([3, 0, 3]);
    const late = balances.find((b) => b.location_code === 'A-01-2')!;
    expect([Number(late.on_hand_qty), Number(late.allocated_qty)]).toEqual([7, 0]);
    const sum = (field: 'on_hand_qty' | 'picked_qty' | 'allocated_qty') => balances.reduce((n, b) => n + Number(b[field]), 0);
    expect([sum('on_hand_qty'), sum('picked_qty'), sum('allocated_qty')]).toEqual([14, 4, 0]);

    // Give back: 3 of the late lot moved to A-04-2, so the SKU is free elsewhere whichever location the next order takes.
    await call('/inventory/handheld/move', { fromLocation: 'A-01-2', sku: SKU, qty: 3, toLocation: 'A-04-2' });
    const back = `${ORDER}-B`;
    const second = (await call<{ row: { _key: number } }>('/generic/adding', {
      moduleCode: 'outbound',
      functionCode: 'so',
      record: { order_no: back, owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-03-01', carrier_code: 'E2E-SHORT' },
    })).row;
    await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soDetail', record: { so_id: second._key, sku_id: sku._key, qty: '2' } });
    await call('/generic/behavior', { moduleCode: 'outbound', functionCode: 'so', behaviour: 'allocate', keys: [second._key], inputs: {} });
    const [backTask] = (await call<{ tasks: Array<{ id: number; location_code: string; qty: string; other_available: string }> }>('/so/pick', { soId: second._key })).tasks;
    expect(Number(backTask.qty)).toBe(2);
    expect(Number(backTask.other_available)).toBeGreaterThan(0);
    const ledger = async () =>
      (await call<{ rows: Array<{ trans_type: string; sku_code: string; location_code: string }> }>('/inventory/transactionLog', { transType: 'all', ...ledgerDays(), orderNo: back, pageSize: 100 })).rows
        .filter((r) => r.sku_code === SKU)
        .map((r) => [r.trans_type, r.location_code]);
    expect(await ledger()).not.toContainEqual(['unallocate', backTask.location_code]);

    // 1 of 2 found, a reason, then "Give the rest back" (Tab to it, Enter).
    await rfEnter(handheld, back, 'location');
    await rfEnter(handheld, backTask.location_code, 'sku');
    await rfEnter(handheld, SKU, 'qty');
    await rfEnter(handheld, '1', 'reason');
    await rfEnter(handheld, 'Damaged', 'rest');
    await expect.poll(() => elsewhere.evaluate((el) => el === document.activeElement)).toBe(true);
    await handheld.keyboard.press('Tab');
    await expect.poll(() => giveBack.evaluate((el) => el === document.activeElement)).toBe(true);
    await handheld.keyboard.press('Enter');
    await eventually(step).toBe('tote');
    await rfEnter(handheld, 'TOTE-BACK', 'search');
    await eventually(() => feedback.innerText()).toContain(`Picked 1 of ${SKU} for ${back};`);
    expect(await feedback.getAttribute('data-tone')).toBe('warning');
    expect(await feedback.innerText()).not.toContain('elsewhere');
    await handheld.context().close();

    // The rest is unallocated at the task's location: no new task, nothing more held, the order partly picked.
    await eventually(ledger).toContainEqual(['unallocate', backTask.location_code]);
    expect((await call<{ tasks: unknown[] }>('/pick/tasks', { soId: second._key, openOnly: true })).tasks).toEqual([]);
    const backOrder = (await selection<{ status: string }>('outbound', 'so', [{ field: 'order_no', operator: '=', value: back }]))[0];
    expect(backOrder.status).toBe('partial_picked');
    const finalBalances = await selection<{ on_hand_qty: string; allocated_qty: string; picked_qty: string; held_qty: string }>('inventory', 'balance', [{ field: 'sku_code', operator: '=', value: SKU }]);
    const total = (field: 'on_hand_qty' | 'picked_qty' | 'allocated_qty' | 'held_qty') => finalBalances.reduce((n, b) => n + Number(b[field]), 0);
    expect([total('on_hand_qty'), total('picked_qty'), total('allocated_qty'), total('held_qty')]).toEqual([14, 5, 0, 3]);
  });
});
