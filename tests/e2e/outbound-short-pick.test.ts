import { describe, expect, it } from 'vitest';
import { apiCall, apiSelection, apiSignIn, eventually, signedInPage, useServerAndBrowser } from '../helpers/browser.js';

/**
 * A short pick on the handheld (360x640, keyboard only) that finds the rest elsewhere: the picker
 * finds 1 of 4 in the early lot's location, gives the reason, and Enter takes the default "Find it
 * elsewhere"; the rest is allocated from the late lot's location, a new task appears and is picked,
 * the order is picked, and the short location's stock is held, not picked again. The picker reads
 * exactly what was held (SKU, lot, location, quantity) and the count that settles it; the
 * supervisor of the warehouse is notified.
 */
const SUPERVISOR = { loginAccount: 'short-supervisor', password: 'Sh0rt!Passw0rd' };

describe('short pick with re-allocation on the handheld in Chromium', () => {
  const e2e = useServerAndBrowser(() => ({ DEMO_DATA: 'true' }), { freshServerOnRetry: true });
  let token = '';
  const call = <T>(path: string, body?: unknown) => apiCall<T>(e2e.server, token, path, body);

  const selection = <T>(moduleCode: string, functionCode: string, rules: unknown[] = []) => apiSelection<T>(e2e.server, token, moduleCode, functionCode, rules);

  it('short picks, finds the rest in another location with Enter and picks it there', async () => {
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
    const sku = (await call<{ row: { _key: number; code: string } }>('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: 'E2E-SHORT-1', owner_id: owner._key, description: 'Short pick item', base_uom: 'EA' } })).row;
    await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soRule', record: { owner_id: owner._key, sku_id: sku._key, strategy: 'fefo', min_shelf_life_days: 0, pick_face_first: false, active: true } });

    // 4 of an early lot in A-02-2 (taken first by FEFO), 10 of a late lot in A-01-2.
    const asn = await call<{ id: number }>('/asn/saveHeader', { ownerCode: owner.code });
    await call('/asn/saveDetail', {
      asnId: asn.id,
      lines: [
        { skuCode: 'E2E-SHORT-1', expectedQty: 10, lotNo: 'LATE', expiryDate: '2031-06-30' },
        { skuCode: 'E2E-SHORT-1', expectedQty: 4, lotNo: 'EARLY', expiryDate: '2030-06-30' },
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
      record: { order_no: 'E2E-SHORT-SO', owner_id: owner._key, ship_to_address_en: '1 Harbour Road', required_ship_date: '2030-03-01', carrier_code: 'E2E-SHORT' },
    })).row;
    await call('/generic/adding', { moduleCode: 'outbound', functionCode: 'soDetail', record: { so_id: header._key, sku_id: sku._key, qty: '4' } });
    await call('/generic/behavior', { moduleCode: 'outbound', functionCode: 'so', behaviour: 'allocate', keys: [header._key], inputs: {} });
    const made = await call<{ tasks: Array<{ id: number; location_code: string; lot_no: string; qty: string }> }>('/so/pick', { soId: header._key });
    expect(made.tasks.map((x) => [x.location_code, x.lot_no, Number(x.qty)])).toEqual([['A-02-2', 'EARLY', 4]]);
    const [task] = made.tasks;

    const handheld = await signedInPage(e2e.browser, e2e.server, '/page/pick', { viewport: { width: 360, height: 640 } });
    await handheld.getByTestId('pick-handheld').waitFor();
    const scan = handheld.getByTestId('scan-field');
    const enter = async (text: string) => {
      await scan.waitFor();
      await expect.poll(() => scan.evaluate((el) => el === document.activeElement)).toBe(true);
      await handheld.keyboard.type(text);
      await handheld.keyboard.press('Enter');
    };
    const feedback = handheld.getByTestId('handheld-feedback');

    // Only 1 found: short, with a reason; then the choice, "Find it elsewhere" focused.
    await handheld.getByTestId(`pick-task-${task.id}`).click();
    await enter('A-02-2');
    await enter('E2E-SHORT-1');
    await enter('1');
    await enter('TOTE-SHORT');
    await enter('Not found');
    await handheld.getByTestId('pick-rest-choice').waitFor();
    await eventually(() => feedback.innerText()).toContain('3 short');
    await expect.poll(() => handheld.getByTestId('pick-find-elsewhere').evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => handheld.getByTestId('pick-give-back').isVisible()).toBe(true);
    // The Enter of the reason did not choose by itself: the task is still open, nothing picked.
    expect((await call<{ tasks: Array<{ id: number; picked_qty: string }> }>('/pick/tasks', { soId: header._key, openOnly: true })).tasks).toMatchObject([{ id: task.id, picked_qty: '0.0000' }]);
    // Both choices fit the handheld's width.
    const box = await handheld.getByTestId('pick-give-back').boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    await handheld.keyboard.press('Enter');
    await eventually(() => feedback.innerText()).toContain('Found 3 elsewhere: 1 new pick task(s).');
    expect(await feedback.getAttribute('data-tone')).toBe('warning');
    // The picker is told what was held at the short location and which count settles it.
    const ticket = (await selection<{ ticket_no: string; status: string }>('inventory', 'cycleCount', [{ field: 'status', operator: '=', value: 'open' }])).map((x) => x.ticket_no);
    const held = handheld.getByTestId('pick-held');
    await eventually(() => held.innerText()).toMatch(/^Held 3 of E2E-SHORT-1, lot EARLY, at A-02-2: nobody takes it until count (\S+) is approved\. Your supervisor has been told\.$/);
    const ticketNo = /count (\S+) is approved/.exec(await held.innerText())![1];
    expect(ticket).toContain(ticketNo);
    const heldBox = await held.boundingBox();
    expect(heldBox!.x + heldBox!.width).toBeLessThanOrEqual(360);
    // The supervisor's bell has it, with the order and the count to open.
    const supervisorToken = await apiSignIn(e2e.server, SUPERVISOR);
    const notices = (await apiCall<{ items: Array<{ title: string; body: string; link: string }> }>(e2e.server, supervisorToken, '/notification/latest')).items;
    expect(notices).toContainEqual(
      expect.objectContaining({ title: 'Short pick: 3 of E2E-SHORT-1 held at A-02-2', link: `cycleCount?ticketNo=${ticketNo}`, body: expect.stringContaining('picking order E2E-SHORT-SO') }),
    );

    // The new task, in the late lot's location, is in the list: pick it with the keyboard.
    const open = (await call<{ tasks: Array<{ id: number; order_no: string; location_code: string; qty: string; status: string }> }>('/pick/tasks', { soId: header._key, openOnly: true })).tasks;
    expect(open.map((x) => [x.location_code, Number(x.qty)])).toEqual([['A-01-2', 3]]);
    await handheld.getByTestId(`pick-task-${open[0].id}`).click();
    await enter('A-01-2');
    await enter('E2E-SHORT-1');
    await enter('3');
    await enter('TOTE-SHORT');
    await eventually(() => feedback.getAttribute('data-tone')).toBe('success');
    await eventually(() => feedback.innerText()).toContain('E2E-SHORT-SO');
    await handheld.context().close();

    // The order is picked; the early location's 3 are held, nothing allocated anywhere.
    const order = (await selection<{ status: string }>('outbound', 'so', [{ field: 'order_no', operator: '=', value: 'E2E-SHORT-SO' }]))[0];
    expect(order.status).toBe('picked');
    const balances = await selection<{ location_code: string; lot_no: string; on_hand_qty: string; allocated_qty: string; picked_qty: string; held_qty: string }>('inventory', 'balance', [
      { field: 'sku_code', operator: '=', value: 'E2E-SHORT-1' },
    ]);
    const early = balances.find((b) => b.location_code === 'A-02-2')!;
    expect([Number(early.on_hand_qty), Number(early.allocated_qty), Number(early.held_qty)]).toEqual([3, 0, 3]);
    const late = balances.find((b) => b.location_code === 'A-01-2')!;
    expect([Number(late.on_hand_qty), Number(late.allocated_qty)]).toEqual([7, 0]);
    const sum = (field: 'on_hand_qty' | 'picked_qty' | 'allocated_qty') => balances.reduce((n, b) => n + Number(b[field]), 0);
    expect([sum('on_hand_qty'), sum('picked_qty'), sum('allocated_qty')]).toEqual([14, 4, 0]);
  });
});
