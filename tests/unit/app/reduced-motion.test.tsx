// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useReducedMotion } from '../../../src/app/reduced-motion';

/** A stand-in for the browser's media query of reduced motion, whose answer the test changes. */
function fakeMedia(initially: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    matches: initially,
    media: '(prefers-reduced-motion: reduce)',
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  const matchMedia = vi.fn((media: string) => {
    expect(media).toBe('(prefers-reduced-motion: reduce)');
    return query as unknown as MediaQueryList;
  });
  vi.stubGlobal('matchMedia', matchMedia);
  return {
    listeners,
    set(matches: boolean) {
      query.matches = matches;
      for (const listener of [...listeners]) listener();
    },
  };
}

function Probe() {
  return <p data-testid="motion">{useReducedMotion() ? 'reduced' : 'full'}</p>;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('useReducedMotion', () => {
  it("follows the browser's reduced-motion setting, also when it changes", () => {
    const media = fakeMedia(false);
    render(<Probe />);
    expect(screen.getByTestId('motion').textContent).toBe('full');
    act(() => media.set(true));
    expect(screen.getByTestId('motion').textContent).toBe('reduced');
    act(() => media.set(false));
    expect(screen.getByTestId('motion').textContent).toBe('full');
  });

  it('reads the setting at the first render and stops listening when the component goes', () => {
    const media = fakeMedia(true);
    const { unmount } = render(<Probe />);
    expect(screen.getByTestId('motion').textContent).toBe('reduced');
    expect(media.listeners.size).toBe(1);
    unmount();
    expect(media.listeners.size).toBe(0);
  });

  it('means full motion where the browser has no matchMedia', () => {
    vi.stubGlobal('matchMedia', undefined);
    render(<Probe />);
    expect(screen.getByTestId('motion').textContent).toBe('full');
  });
});
