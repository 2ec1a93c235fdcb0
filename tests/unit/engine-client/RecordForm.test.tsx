// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { PageDefinition } from '../../../engine/schema/index.js';
import { RecordForm } from '../../../engine/client/RecordForm.js';
import { EngineServicesContext, type EngineServices } from '../../../engine/client/services.js';
import { prepareAntdInJsdom } from '../../helpers/jsdom-antd.js';

class Refusal extends Error {
  constructor(readonly body: { status: number; code: string; message: string; details?: { field: string; code: string; message?: string }[] }) {
    super(body.message);
  }
}

const page: PageDefinition = {
  schemaVersion: 2,
  moduleCode: 'masterdata',
  functionCode: 'sku',
  titleCode: 'md.page.sku',
  status: 'published',
  table: { name: 'sku' },
  scope: 'project',
  fields: [
    { name: 'code', labelCode: 'Code', type: 'string', length: 5, mandatory: true },
    { name: 'length_cm', labelCode: 'Length', type: 'decimal', decimal: 2 },
    { name: 'width_cm', labelCode: 'Width', type: 'decimal', decimal: 2 },
    { name: 'area', labelCode: 'Area', type: 'decimal', decimal: 2, editable: false, calc: { type: 'product', params: ['length_cm', 'width_cm'] } },
  ],
};

function fakeServices(call: EngineServices['call']): EngineServices {
  return {
    call,
    download: vi.fn(),
    upload: vi.fn(),
    callError: (error) => (error instanceof Refusal ? error.body : undefined),
    confirm: vi.fn(async () => true),
    message: vi.fn(async () => undefined),
    openPage: vi.fn(),
    t: (key, params) => (params ? `${key} ${JSON.stringify(params)}` : key),
    hasText: (key) => key.startsWith('ui.'),
    language: 'en',
    userKey: '1',
    preferences: { get: () => null, set: () => undefined },
  };
}

function renderForm(services: EngineServices, onSaved = vi.fn()) {
  render(
    <EngineServicesContext.Provider value={services}>
      <RecordForm page={page} mode="add" initial={{}} label={(code) => code} onClose={() => undefined} onSaved={onSaved} />
    </EngineServicesContext.Provider>,
  );
  return onSaved;
}

function input(label: string): HTMLInputElement {
  return screen.getByLabelText(label, { exact: false, selector: 'input' });
}

function save() {
  fireEvent.click(document.getElementById('engine-form-save')!);
}

describe(RecordForm.name, () => {
  beforeAll(prepareAntdInJsdom);
  afterEach(cleanup);

  it('shows the missing mandatory field and the too-long value on their fields and sends nothing', async () => {
    const call = vi.fn();
    renderForm(fakeServices(call));
    save();
    expect(await screen.findByText('ui.engine.form.required')).toBeTruthy();
    fireEvent.change(input('Code'), { target: { value: 'TOOLONG' } });
    save();
    expect(await screen.findByText('ui.engine.form.maxLength {"limit":5}')).toBeTruthy();
    expect(call).not.toHaveBeenCalled();
  });

  it('computes the calculated field from its parameters', async () => {
    renderForm(fakeServices(vi.fn()));
    fireEvent.change(input('Length'), { target: { value: '1.5' } });
    fireEvent.change(input('Width'), { target: { value: '2' } });
    await waitFor(() => expect(input('Area').value).toBe('3'));
  });

  it('shows a duplicate refused by the server under its field and does not close', async () => {
    const call = vi.fn(async () => {
      throw new Refusal({ status: 409, code: 'DUPLICATE_VALUE', message: 'Some fields are not valid.', details: [{ field: 'code', code: 'DUPLICATE_VALUE', message: 'A record with this value already exists.' }] });
    });
    const onSaved = renderForm(fakeServices(call));
    fireEvent.change(input('Code'), { target: { value: 'A1' } });
    save();
    expect(await screen.findByText('A record with this value already exists.')).toBeTruthy();
    expect(call).toHaveBeenCalledWith('/generic/adding', { moduleCode: 'masterdata', functionCode: 'sku', record: { code: 'A1', length_cm: null, width_cm: null, area: null } }, { quiet: true });
    expect(onSaved).not.toHaveBeenCalled();
  });
});
