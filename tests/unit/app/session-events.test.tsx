// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import '../../../src/app/i18n';
import { api } from '../../../src/app/api/client';
import { GlobalLoading, SessionEvents } from '../../../src/app/shell/SessionEvents';
import { PopupHost, clearPopups } from '../../../src/app/popups';
import { openTab } from '../../../src/app/store/session-store';

/**
 * The shell's reaction to calls, with the network answered here: what is under test is the
 * browser side (counting, popups, redirect), not the server.
 */
function answerWith(status: number, body: unknown) {
  let settle: (r: Response) => void = () => undefined;
  vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (settle = resolve)));
  return () => settle(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
}

function renderShell() {
  return render(
    <MemoryRouter initialEntries={['/page/home']}>
      <SessionEvents />
      <GlobalLoading />
      <PopupHost />
      <Routes>
        <Route path="/" element={<p>root</p>} />
        <Route path="/page/*" element={<p>shell</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

beforeAll(() => {
  // jsdom: no Web Audio (the failed sound is only logged) and no pseudo-element styles for antd.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  const getComputedStyle = window.getComputedStyle.bind(window);
  window.getComputedStyle = (element: Element) => getComputedStyle(element);
});

afterEach(() => {
  act(() => clearPopups());
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  sessionStorage.clear();
});

describe('global loading indicator', () => {
  it('shows only after 200 ms of a running call and hides when it ends', async () => {
    vi.useFakeTimers();
    renderShell();
    const answer = answerWith(200, { ok: true });
    let call: Promise<unknown> | undefined;
    act(() => {
      call = api('/anything');
    });
    act(() => void vi.advanceTimersByTime(199));
    expect(screen.queryByTestId('global-loading')).toBeNull();
    act(() => void vi.advanceTimersByTime(1));
    expect(screen.getByTestId('global-loading')).toBeTruthy();
    await act(async () => {
      answer();
      await call;
    });
    expect(screen.queryByTestId('global-loading')).toBeNull();
  });
});

describe('failed calls', () => {
  it('shows the error answer in the message popup', async () => {
    renderShell();
    const answer = answerWith(409, { code: 'DATA_NOT_CHANGED', message: 'The data has not changed.' });
    await act(async () => {
      const call = api('/anything').catch(() => undefined);
      answer();
      await call;
    });
    expect(document.querySelector('.wms-popup-message [data-popup-type="error"]')!.textContent).toContain('The data has not changed.');
  });

  it('on 401 clears the token, menu and active menu and goes to the root, without a popup', async () => {
    sessionStorage.setItem('token', 'x'.repeat(43));
    document.cookie = `token=${'x'.repeat(43)}; path=/`;
    openTab({ route: 'sku', titleKey: 'ui.shell.route.sku' });
    sessionStorage.setItem('menu', '[]');
    renderShell();
    expect(screen.getByText('shell')).toBeTruthy();
    const answer = answerWith(401, { code: 'UNAUTHENTICATED', message: 'Please sign in.' });
    await act(async () => {
      const call = api('/anything').catch(() => undefined);
      answer();
      await call;
    });
    expect(screen.getByText('root')).toBeTruthy();
    expect([sessionStorage.getItem('token'), sessionStorage.getItem('menu'), sessionStorage.getItem('activeMenu')]).toEqual([null, null, null]);
    expect(document.cookie).not.toContain('token=');
    expect(document.querySelector('.wms-popup')).toBeNull();
  });
});
