// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import '../../../src/app/i18n';
import { RouteScreen, ScreenHost, CHUNK_LOAD_TIMEOUT_MS } from '../../../src/app/shell/ScreenHost';
import { setPageRoutes, type PageRoute } from '../../../src/app/routes';

beforeAll(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  // The shell has the server's route table before it hosts a screen; a pending route of it is enough here.
  setPageRoutes({ groups: [], routes: [{ route: 'pack', group: 'outbound', titleKey: 'menu.pack', target: { kind: 'pending' } }] });
});
afterEach(() => cleanup());

describe(ScreenHost.name, () => {
  it('waits 120000 ms for a screen chunk', () => {
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
  });

  it('shows the module-not-found error for a route the table does not know', () => {
    render(<ScreenHost route="noSuchScreen" />);
    const result = screen.getByTestId('module-not-found');
    expect(result.textContent).toContain('This screen could not be found.');
    expect(result.textContent).toContain('/noSuchScreen');
  });

  it('shows "not yet available" naming a route whose screen has not landed', async () => {
    render(<ScreenHost route="pack" />);
    const screenEl = await screen.findByTestId('not-available');
    expect(screenEl.getAttribute('data-route')).toBe('/pack');
    expect(screenEl.textContent).toContain('Packing');
  });

  it('offers a retry when the chunk does not load in time, and the retry loads it', async () => {
    vi.useFakeTimers();
    try {
      let attempts = 0;
      const page: PageRoute = {
        route: 'slow',
        group: 'masterData',
        titleKey: 'menu.sku',
        target: {
          kind: 'screen',
          load: () => {
            attempts += 1;
            return attempts === 1 ? new Promise(() => undefined) : Promise.resolve({ default: () => <p>loaded screen</p> });
          },
        },
      };
      render(<RouteScreen page={page} timeoutMs={5000} />);
      expect(screen.getByTestId('screen-loading')).toBeTruthy();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(5000);
      });
      expect(screen.getByTestId('screen-load-error').textContent).toContain('did not load within 5 seconds');
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
        await vi.advanceTimersByTimeAsync(0);
      });
      expect(screen.getByText('loaded screen')).toBeTruthy();
      expect(attempts).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows module-not-found when the loaded module has no screen', async () => {
    const page: PageRoute = {
      route: 'empty',
      group: 'masterData',
      titleKey: 'menu.sku',
      target: { kind: 'screen', load: () => Promise.resolve({} as { default: never }) },
    };
    render(<RouteScreen page={page} />);
    expect((await screen.findByTestId('module-not-found')).getAttribute('data-route')).toBe('/empty');
  });
});
