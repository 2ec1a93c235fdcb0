// @vitest-environment jsdom
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { BehaviourDefinition, PageDefinition } from '../../../engine/schema/index.js';
import type { BehaviourResponse } from '../../../engine/schema/api.js';
import { useBehaviours } from '../../../engine/client/useBehaviours.js';
import { EngineServicesContext, type EngineServices } from '../../../engine/client/services.js';
import type { PageRights } from '../../../engine/client/model/pageRights.js';

/**
 * The confirmation of a behaviour with `confirmPreview`: the server's preview is asked first
 * (quietly) and shown above the fixed confirm text; a refusal is shown instead and nothing runs;
 * a failed preview falls back to the fixed text.
 */
const cancel: BehaviourDefinition = {
  code: 'cancel',
  action: 'outbound.so.cancel',
  labelCode: 'CANCEL',
  confirm: true,
  confirmTextCode: 'CANCEL_CONFIRM',
  confirmPreview: true,
  selection: 'many',
  right: 'edit',
};

const page: PageDefinition = {
  schemaVersion: 2,
  moduleCode: 'outbound',
  functionCode: 'so',
  titleCode: 'SO',
  status: 'published',
  table: { name: 'so_header' },
  scope: 'warehouse',
  fields: [{ name: 'order_no', labelCode: 'ORDER_NO', type: 'string' }],
  behaviours: [cancel],
};

const rights: PageRights = { view: true, add: true, edit: true, delete: true };
const PREVIEW_TEXT = '2 order(s): 15 allocated unit(s) will be given back';

type Preview = BehaviourResponse | Error;

function services(preview: Preview, confirmed = true) {
  const call = vi.fn(async (_path: string, body: unknown) => {
    if ((body as { preview?: boolean }).preview) {
      if (preview instanceof Error) throw preview;
      return preview;
    }
    return { result: { count: 2 }, messageCode: 'DONE' };
  });
  const confirm = vi.fn(async () => confirmed);
  const message = vi.fn(async () => undefined);
  const value: EngineServices = {
    call: call as unknown as EngineServices['call'],
    download: vi.fn(),
    upload: vi.fn(),
    callError: () => undefined,
    confirm,
    message,
    openPage: vi.fn(),
    t: (key, params) => (key === 'outbound.so.endPreview' ? PREVIEW_TEXT.replace('2', String(params?.orders)) : key),
    hasText: (key) => key === 'outbound.so.endPreview',
    language: 'en',
    userKey: '1',
    preferences: { get: () => null, set: () => undefined },
  };
  return { call, confirm, message, value };
}

async function runCancel(value: EngineServices, behaviour = cancel) {
  const onDone = vi.fn();
  const wrapper = ({ children }: { children: ReactNode }) => <EngineServicesContext.Provider value={value}>{children}</EngineServicesContext.Provider>;
  const { result } = renderHook(() => useBehaviours(page, rights, [{ _key: 7, _version: null }, { _key: 8, _version: null }], (code) => `[${code}]`, onDone), { wrapper });
  await act(() => result.current.run(behaviour));
  return onDone;
}

const runs = (call: ReturnType<typeof services>['call']) => call.mock.calls.filter(([, body]) => !(body as { preview?: boolean }).preview);

afterEach(cleanup);

describe('useBehaviours: a confirmation with the preview', () => {
  it('asks the preview quietly and shows it above the fixed text, then runs on OK', async () => {
    const { call, confirm, value } = services({ result: null, messageCode: 'outbound.so.endPreview', messageParams: { orders: 2 } });
    await runCancel(value);
    expect(call.mock.calls[0]).toEqual(['/generic/behavior', { moduleCode: 'outbound', functionCode: 'so', behaviour: 'cancel', keys: [7, 8], preview: true }, { quiet: true }]);
    expect(confirm).toHaveBeenCalledWith(expect.objectContaining({ title: '[CANCEL]', content: `${PREVIEW_TEXT}\n\n[CANCEL_CONFIRM]` }));
    expect(runs(call)).toHaveLength(1);
  });

  it('runs nothing when the dialog is cancelled', async () => {
    const { call, confirm, value } = services({ result: null, messageCode: 'outbound.so.endPreview', messageParams: { orders: 2 } }, false);
    const onDone = await runCancel(value);
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(runs(call)).toHaveLength(0);
    expect(onDone).not.toHaveBeenCalled();
  });

  it('shows the refusal instead of the confirmation and runs nothing', async () => {
    const refusal = { code: 'ORDER_STATUS_ERROR', message: 'Status error: the order may not be cancelled.' };
    const { call, confirm, message, value } = services({ result: null, messageCode: 'outbound.so.endPreview', messageParams: { orders: 2 }, refusal });
    await runCancel(value);
    expect(confirm).not.toHaveBeenCalled();
    expect(message).toHaveBeenCalledWith({ type: 'error', content: refusal.message });
    expect(runs(call)).toHaveLength(0);
  });

  it('falls back to the fixed text when the preview call fails', async () => {
    const { call, confirm, value } = services(new Error('offline'));
    await runCancel(value);
    expect(confirm).toHaveBeenCalledWith(expect.objectContaining({ content: '[CANCEL_CONFIRM]' }));
    expect(runs(call)).toHaveLength(1);
  });

  it('asks no preview for a behaviour without confirmPreview', async () => {
    const { call, confirm, value } = services({ result: null, messageCode: 'outbound.so.endPreview' });
    await runCancel(value, { ...cancel, confirmPreview: undefined });
    expect(call.mock.calls.some(([, body]) => (body as { preview?: boolean }).preview)).toBe(false);
    expect(confirm).toHaveBeenCalledWith(expect.objectContaining({ content: '[CANCEL_CONFIRM]' }));
  });
});
