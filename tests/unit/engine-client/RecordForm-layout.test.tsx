// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { PageDefinition } from '../../../engine/schema/index.js';
import { RecordForm } from '../../../engine/client/RecordForm.js';
import { EngineServicesContext, type EngineServices } from '../../../engine/client/services.js';
import { formLayout, columnsFor, spanOf } from '../../../engine/client/model/formLayout.js';
import { buildFormSchema, numberStep } from '../../../engine/client/model/buildFormSchema.js';

class Refusal extends Error {
  constructor(readonly body: { status: number; code: string; message: string; details?: { field: string; code: string; message?: string }[] }) {
    super(body.message);
  }
}

const page: PageDefinition = {
  schemaVersion: 2,
  moduleCode: 'masterdata',
  functionCode: 'whs',
  titleCode: 'md.page.whs',
  status: 'published',
  table: { name: 'whs' },
  scope: 'project',
  formColumns: 3,
  fields: [
    { name: 'code', labelCode: 'Code', type: 'string', length: 5, mandatory: true },
    { name: 'name', labelCode: 'Name', type: 'string', length: 50, width: 2 },
    { name: 'phone', labelCode: 'Phone', type: 'string', group: 'Contact' },
    { name: 'address1', labelCode: 'Address', type: 'string', group: 'Address', width: 'full', mandatory: true },
    { name: 'email', labelCode: 'Email', type: 'string', group: 'Contact' },
    { name: 'capacity', labelCode: 'Capacity', type: 'decimal', decimal: 3 },
    { name: 'docks', labelCode: 'Docks', type: 'integer', mandatory: true },
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

function renderForm(services: EngineServices) {
  render(
    <EngineServicesContext.Provider value={services}>
      <RecordForm page={page} mode="add" initial={{}} label={(code) => `~${code}`} onClose={() => undefined} onSaved={vi.fn()} />
    </EngineServicesContext.Provider>,
  );
}

function save() {
  fireEvent.click(document.getElementById('engine-form-save')!);
}

let phoneSized = false;

describe('the record form: summary of a refused save, layout, number inputs', () => {
  beforeAll(() => {
    const noop = () => undefined;
    Object.defineProperty(window, 'matchMedia', {
      configurable: true,
      value: (query: string) => ({
        matches: query.includes('max-width: 575px') ? phoneSized : false,
        media: query,
        addEventListener: noop,
        removeEventListener: noop,
        addListener: noop,
        removeListener: noop,
        onchange: null,
        dispatchEvent: () => false,
      }),
    });
    const computed = window.getComputedStyle.bind(window);
    window.getComputedStyle = (element: Element) => computed(element);
    globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
  });
  afterEach(() => {
    cleanup();
    phoneSized = false;
  });

  it('lists every field in error by its label at the top and puts the cursor in the first', async () => {
    const call = vi.fn();
    renderForm(fakeServices(call));
    save();
    const items = await screen.findAllByTestId('engine-form-summary-item');
    // in the order of the form: the grouped address comes with its group, before the docks
    expect(items.map((item) => item.getAttribute('data-field'))).toEqual(['code', 'address1', 'docks']);
    expect(items.map((item) => item.closest('li')?.textContent)).toEqual([
      '~Code: ui.engine.form.required',
      '~Address: ui.engine.form.required',
      '~Docks: ui.engine.form.required',
    ]);
    expect(screen.getByTestId('engine-form-summary').textContent).toContain('ui.engine.form.summary {"count":3}');
    await waitFor(() => expect(document.activeElement?.id).toBe('engine_whs_code'));
    // an entry of the summary takes the cursor to its field
    fireEvent.click(items[2]);
    expect(document.activeElement?.id).toBe('engine_whs_docks');
    expect(call).not.toHaveBeenCalled();
  });

  it("lists the server's field problems and focuses the first of them in the form's order", async () => {
    const call = vi.fn(async () => {
      throw new Refusal({
        status: 400,
        code: 'VALIDATION_FAILED',
        message: 'Some fields are not valid.',
        details: [
          { field: 'address1', code: 'FIELD_VALIDATION_SQL', message: 'Unknown street.' },
          { field: 'docks', code: 'FIELD_RANGE', message: 'Out of range.' },
          { field: 'email', code: 'FIELD_FORMAT', message: 'Not an address.' },
        ],
      });
    });
    renderForm(fakeServices(call));
    fireEvent.change(document.getElementById('engine_whs_code')!, { target: { value: 'W1' } });
    fireEvent.change(document.getElementById('engine_whs_address1')!, { target: { value: 'Street 1' } });
    fireEvent.change(document.getElementById('engine_whs_docks')!, { target: { value: '4' } });
    save();
    const items = await screen.findAllByTestId('engine-form-summary-item');
    // the contact group (with the email) is shown before the address group
    expect(items.map((item) => item.closest('li')?.textContent)).toEqual(['~Email: Not an address.', '~Address: Unknown street.', '~Docks: Out of range.']);
    await waitFor(() => expect(document.activeElement?.id).toBe('engine_whs_email'));
    // correcting a field takes it off the summary
    fireEvent.change(document.getElementById('engine_whs_email')!, { target: { value: 'a@b.c' } });
    await waitFor(() => expect(screen.getAllByTestId('engine-form-summary-item').map((item) => item.getAttribute('data-field'))).toEqual(['address1', 'docks']));
  });

  it('shows groups under their headings in the columns of the page, one column on a phone', () => {
    renderForm(fakeServices(vi.fn()));
    expect(screen.getByTestId('engine-form-layout').getAttribute('data-columns')).toBe('3');
    expect(screen.getAllByTestId('engine-form-group-title').map((title) => title.textContent)).toEqual(['~Contact', '~Address']);
    const sections = screen.getAllByTestId('engine-form-section');
    expect(sections.map((section) => [...section.querySelectorAll('[data-field]')].map((cell) => cell.getAttribute('data-field')))).toEqual([
      ['code', 'name'],
      ['phone', 'email'],
      ['address1'],
      ['capacity', 'docks'],
    ]);
    const cell = (name: string) => document.querySelector<HTMLElement>(`[data-field="${name}"]`)!.style.gridColumn;
    expect([cell('code'), cell('name'), cell('address1')]).toEqual(['span 1', 'span 2', 'span 3']);
    cleanup();
    phoneSized = true;
    renderForm(fakeServices(vi.fn()));
    expect(screen.getByTestId('engine-form-layout').getAttribute('data-columns')).toBe('1');
    expect(cell('address1')).toBe('span 1');
  });

  it('gives numeric fields a number input stepping by their decimals that keeps the typed text', async () => {
    renderForm(fakeServices(vi.fn()));
    const capacity = document.getElementById('engine_whs_capacity') as HTMLInputElement;
    const docks = document.getElementById('engine_whs_docks') as HTMLInputElement;
    expect([capacity.type, capacity.step, capacity.inputMode]).toEqual(['number', '0.001', 'decimal']);
    expect([docks.type, docks.step]).toEqual(['number', '1']);
    fireEvent.change(capacity, { target: { value: '12.345' } });
    await waitFor(() => expect((document.getElementById('engine_whs_capacity') as HTMLInputElement).value).toBe('12.345'));
  });
});

describe('form layout model', () => {
  const field = (name: string, extra: Partial<PageDefinition['fields'][number]> = {}) => ({ name, labelCode: name, type: 'string' as const, ...extra });
  it('spans a field over its width, at most the columns, a text area over the whole row', () => {
    expect(spanOf(field('a'), 2)).toBe(1);
    expect(spanOf(field('a', { width: 3 }), 2)).toBe(2);
    expect(spanOf(field('a', { width: 'full' }), 3)).toBe(3);
    expect(spanOf(field('a', { type: 'text' }), 2)).toBe(2);
  });
  it('gathers the fields of a group where it first appears', () => {
    expect(formLayout([field('a'), field('b', { group: 'G' }), field('c'), field('d', { group: 'G' }), field('e', { group: 'H' })], 2)).toEqual([
      { cells: [{ name: 'a', span: 1 }] },
      { group: 'G', cells: [{ name: 'b', span: 1 }, { name: 'd', span: 1 }] },
      { cells: [{ name: 'c', span: 1 }] },
      { group: 'H', cells: [{ name: 'e', span: 1 }] },
    ]);
  });
  it('uses the columns of the page on a wide screen and one on a phone', () => {
    expect(columnsFor(2, false)).toBe(2);
    expect(columnsFor(3, false)).toBe(3);
    expect(columnsFor(3, true)).toBe(1);
  });
  it('gives a number input to numbers without choices only, also before the choices have loaded', () => {
    const withOwner: PageDefinition = {
      ...page,
      fields: [...page.fields, { name: 'owner_id', labelCode: 'Owner', type: 'integer', options: { type: 'foreign', table: 'owner', valueField: 'id' } }],
    };
    const ui = buildFormSchema(withOwner, { mode: 'add', record: {}, choices: {}, label: (c) => c }).uiSchema as Record<string, Record<string, unknown>>;
    expect(ui.docks['ui:widget']).toBe('engineNumber');
    expect(ui.capacity['ui:options']).toEqual({ step: '0.001' });
    expect(ui.owner_id['ui:widget']).toBeUndefined();
  });
  it('steps a number input by the last allowed digit, written as text', () => {
    expect(numberStep(field('n', { type: 'decimal', decimal: 4 }))).toBe('0.0001');
    expect(numberStep(field('n', { type: 'decimal', decimal: 0 }))).toBe('1');
    expect(numberStep(field('n', { type: 'decimal' }))).toBe('any');
    expect(numberStep(field('n', { type: 'integer' }))).toBe('1');
  });
});
