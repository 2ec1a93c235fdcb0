// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { PageDefinition } from '../../../engine/schema/index.js';
import { RecordForm } from '../../../engine/client/RecordForm.js';
import { EngineServicesContext, type EngineServices } from '../../../engine/client/services.js';
import { prepareAntdInJsdom } from '../../helpers/jsdom-antd.js';

// antd's list in jsdom can take seconds to show on a loaded machine: wait up to 15 s, not 1 s.
configure({ asyncUtilTimeout: 15_000 });

/**
 * The engine form's dropdown filters by the label the user reads (never the stored key) and, when
 * the server cut the list at its row cap, asks the server for what the user types.
 */
const page: PageDefinition = {
  schemaVersion: 2,
  moduleCode: 'inbound',
  functionCode: 'poLine',
  titleCode: 'inb.page.poLine',
  status: 'published',
  table: { name: 'po_line' },
  scope: 'project',
  fields: [{ name: 'sku_id', labelCode: 'SKU', type: 'integer', mandatory: true, options: { type: 'foreign', table: 'sku', valueField: 'id', labelField: 'code' } }],
};

type DropdownBody = { field: string; search?: string };

function services(truncated: boolean) {
  const call = vi.fn(async (path: string, body: unknown) => {
    if (path !== '/generic/dropdown') return { row: {} };
    const { search } = body as DropdownBody;
    if (search) return { options: [{ value: 9012, label: 'ZZ-9012' }].filter((o) => o.label.includes(search)), truncated: false };
    return { options: [{ value: 1, label: 'AC-1000' }, { value: 2, label: 'AC-2000' }, { value: 3, label: 'BX-3000' }], truncated };
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

function renderForm(value: EngineServices, onSaved = vi.fn()) {
  render(
    <EngineServicesContext.Provider value={value}>
      <RecordForm page={page} mode="add" initial={{}} label={(code) => code} onClose={() => undefined} onSaved={onSaved} />
    </EngineServicesContext.Provider>,
  );
}

const search = () => document.getElementById('engine_poLine_sku_id') as HTMLInputElement;
const shownOptions = () => [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.getAttribute('title'));

async function typeInto(text: string) {
  fireEvent.mouseDown(search());
  fireEvent.change(search(), { target: { value: text } });
}

describe('engine form dropdown', () => {
  beforeAll(prepareAntdInJsdom);
  afterEach(cleanup);

  it('filters the choices by their label as the user types, not by their key', async () => {
    const { call, value } = services(false);
    renderForm(value);
    await waitFor(() => expect(call).toHaveBeenCalledWith('/generic/dropdown', expect.objectContaining({ field: 'sku_id' })));
    await typeInto('ac-2');
    await waitFor(() => expect(shownOptions()).toEqual(['AC-2000']));
    // "2" is the key of AC-2000 and the index of BX-3000: neither may match by itself.
    await typeInto('3000');
    await waitFor(() => expect(shownOptions()).toEqual(['BX-3000']));
    expect(call.mock.calls.filter(([, body]) => (body as DropdownBody).search)).toEqual([]);
  });

  it('searches a list cut at the row cap on the server and saves the choice found', async () => {
    const { call, value } = services(true);
    const onSaved = vi.fn();
    renderForm(value, onSaved);
    await waitFor(() => expect(call).toHaveBeenCalledTimes(1));
    await typeInto('ZZ-90');
    await waitFor(() => expect(call).toHaveBeenCalledWith('/generic/dropdown', expect.objectContaining({ field: 'sku_id', search: 'ZZ-90' })));
    await waitFor(() => expect(shownOptions()).toEqual(['ZZ-9012']));
    await act(async () => {
      fireEvent.click(screen.getByTitle('ZZ-9012'));
    });
    fireEvent.click(document.getElementById('engine-form-save')!);
    await waitFor(() => expect(call).toHaveBeenCalledWith('/generic/adding', { moduleCode: 'inbound', functionCode: 'poLine', record: { sku_id: 9012 } }, { quiet: true }));
  });
});
