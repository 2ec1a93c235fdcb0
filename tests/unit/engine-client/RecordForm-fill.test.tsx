// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { PageDefinition } from '../../../engine/schema/index.js';
import { RecordForm } from '../../../engine/client/RecordForm.js';
import { EngineServicesContext, type EngineServices } from '../../../engine/client/services.js';
import { prepareAntdInJsdom } from '../../helpers/jsdom-antd.js';

/**
 * The engine form's foreign dropdowns that work together: picking a consignee fills the ship-to
 * fields still empty (engine/schema README, options `fill`), and a dropdown that follows another
 * field (the batches of the chosen owner) is emptied and reloaded when that field changes.
 */
const page: PageDefinition = {
  schemaVersion: 2,
  moduleCode: 'outbound',
  functionCode: 'order',
  titleCode: 'ORDER',
  status: 'published',
  table: { name: 'engine_order' },
  scope: 'project',
  fields: [
    {
      name: 'consignee_id',
      labelCode: 'CONSIGNEE',
      type: 'integer',
      options: {
        type: 'foreign',
        table: 'partner',
        valueField: 'id',
        labelField: 'code',
        descriptionField: 'name',
        filter: [{ column: 'partner_type', value: 'consignee' }],
        fill: [
          { column: 'name', field: 'ship_name' },
          { column: 'address1', field: 'ship_address' },
        ],
      },
    },
    { name: 'ship_name', labelCode: 'SHIP_NAME', type: 'string' },
    { name: 'ship_address', labelCode: 'SHIP_ADDRESS', type: 'string' },
    { name: 'owner_id', labelCode: 'OWNER', type: 'integer', options: { type: 'foreign', table: 'owner', valueField: 'id', labelField: 'code' } },
    {
      name: 'batch_id',
      labelCode: 'BATCH',
      type: 'integer',
      triggerFields: ['owner_id'],
      options: { type: 'foreign', table: 'batch', valueField: 'id', labelField: 'batch_no', filter: [{ column: 'owner_id', field: 'owner_id' }] },
    },
  ],
};

type DropdownBody = { field: string; record?: Record<string, unknown>; fillFrom?: unknown };

function services() {
  const call = vi.fn(async (path: string, body: unknown) => {
    if (path !== '/generic/dropdown') return { row: {} };
    const { field, record, fillFrom } = body as DropdownBody;
    if (fillFrom !== undefined) {
      return {
        options: fillFrom === 1 ? [{ value: 'ship_name', label: 'Harbour City Store' }, { value: 'ship_address', label: '3 Canton Road' }] : [],
        truncated: false,
      };
    }
    switch (field) {
      case 'consignee_id':
        return { options: [{ value: 1, label: 'STORE01 - Harbour City Store' }], truncated: false };
      case 'owner_id':
        return { options: [{ value: 1, label: 'OWN-A' }, { value: 2, label: 'OWN-B' }], truncated: false };
      default: {
        const all = [
          { value: 10, label: 'BA-1', owner: 1 },
          { value: 20, label: 'BB-1', owner: 2 },
        ];
        return { options: all.filter((o) => record?.owner_id === undefined || o.owner === record.owner_id).map(({ value, label }) => ({ value, label })), truncated: false };
      }
    }
  });
  const value: EngineServices = {
    call: call as unknown as EngineServices['call'],
    download: vi.fn(),
    upload: vi.fn(),
    callError: () => undefined,
    confirm: vi.fn(async () => true),
    message: vi.fn(async () => undefined),
    openPage: vi.fn(),
    t: (key) => key,
    hasText: () => false,
    language: 'en',
    userKey: '1',
    preferences: { get: () => null, set: () => undefined },
  };
  return { call, value };
}

const input = (name: string) => document.getElementById(`engine_order_${name}`) as HTMLInputElement;

/** Types the start of a choice into the dropdown (which opens it) and clicks the choice. */
async function choose(name: string, title: string) {
  await waitFor(() => {
    fireEvent.mouseDown(input(name));
    fireEvent.change(input(name), { target: { value: title.slice(0, 4) } });
    expect(screen.getAllByTitle(title).length).toBeGreaterThan(0);
  });
  await act(async () => {
    fireEvent.click(screen.getAllByTitle(title).at(-1)!);
  });
}

describe('engine form: dropdowns that fill and follow', () => {
  beforeAll(prepareAntdInJsdom);
  afterEach(cleanup);

  it('fills the empty ship-to fields from the chosen consignee and keeps what was typed', async () => {
    const { call, value } = services();
    render(
      <EngineServicesContext.Provider value={value}>
        <RecordForm page={page} mode="add" initial={{}} label={(code) => code} onClose={() => undefined} onSaved={vi.fn()} />
      </EngineServicesContext.Provider>,
    );
    fireEvent.change(input('ship_address'), { target: { value: 'Gate 4' } });
    await choose('consignee_id', 'STORE01 - Harbour City Store');
    await waitFor(() => expect(call).toHaveBeenCalledWith('/generic/dropdown', expect.objectContaining({ field: 'consignee_id', fillFrom: 1 })));
    await waitFor(() => expect(input('ship_name').value).toBe('Harbour City Store'));
    expect(input('ship_address').value).toBe('Gate 4');
  });

  it('empties and reloads the dropdown that follows a field when that field changes', async () => {
    const { call, value } = services();
    const onSaved = vi.fn();
    render(
      <EngineServicesContext.Provider value={value}>
        <RecordForm page={page} mode="add" initial={{}} label={(code) => code} onClose={() => undefined} onSaved={onSaved} />
      </EngineServicesContext.Provider>,
    );
    await choose('owner_id', 'OWN-A');
    await waitFor(() => expect(call).toHaveBeenCalledWith('/generic/dropdown', expect.objectContaining({ field: 'batch_id', record: { owner_id: 1 } })));
    await choose('batch_id', 'BA-1');
    await choose('owner_id', 'OWN-B');
    await waitFor(() => expect(call).toHaveBeenCalledWith('/generic/dropdown', expect.objectContaining({ field: 'batch_id', record: { owner_id: 2 } })));
    // The batch of the old owner is gone; saving now sends none.
    fireEvent.click(document.getElementById('engine-form-save')!);
    await waitFor(() => expect(call).toHaveBeenCalledWith('/generic/adding', expect.anything(), { quiet: true }));
    const added = call.mock.calls.find(([path]) => path === '/generic/adding')![1] as { record: Record<string, unknown> };
    expect(added.record).toMatchObject({ owner_id: 2, batch_id: null });
  });
});
