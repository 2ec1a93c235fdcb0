// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import '../../../src/app/i18n';
import { clearPopups, PopupHost, showConfirm, showMessage } from '../../../src/app/popups';
import { popupStack } from '../../../src/app/popups/popup-store';
import { formatPopupText, hasMarkup, sanitizeMarkup } from '../../../src/app/popups/format';

beforeAll(() => {
  // jsdom implements getComputedStyle without pseudo-elements, which antd's scroll lock asks for.
  const getComputedStyle = window.getComputedStyle.bind(window);
  window.getComputedStyle = (element: Element) => getComputedStyle(element);
  // jsdom has no Web Audio: the popup sound fails, which must only be logged.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  act(() => clearPopups());
  cleanup();
});

function press(key: string) {
  fireEvent.keyDown(document.activeElement ?? document.body, { key });
}

function contents() {
  return [...document.querySelectorAll('.wms-popup .wms-popup-content')].map((e) => e.textContent);
}

describe('message popup', () => {
  it('stacks popups and Escape closes only the most recent one', async () => {
    render(<PopupHost />);
    const first = vi.fn();
    const second = vi.fn();
    act(() => {
      void showMessage({ type: 'info', content: 'first', callback: first });
      void showMessage({ type: 'error', content: 'second', callback: second });
    });
    expect(contents()).toEqual(['first', 'second']);
    act(() => press('Escape'));
    expect(contents()).toEqual(['first']);
    expect(second).toHaveBeenCalledTimes(1);
    expect(first).not.toHaveBeenCalled();
    await act(async () => {
      press('Escape');
      await Promise.resolve();
    });
    expect(contents()).toEqual([]);
    expect(first).toHaveBeenCalledTimes(1);
  });

  it('runs the callback exactly once however often it is closed', () => {
    render(<PopupHost />);
    const callback = vi.fn();
    act(() => void showMessage({ type: 'success', content: 'saved', callback }));
    const ok = screen.getByRole('button', { name: 'OK' });
    act(() => {
      fireEvent.click(ok);
      fireEvent.click(ok);
      press('Escape');
    });
    expect(callback).toHaveBeenCalledTimes(1);
    expect(popupStack()).toHaveLength(0);
  });

  it('blocks Enter while a popup is open and does not close on it', () => {
    render(<PopupHost />);
    const outside = vi.fn();
    window.addEventListener('keydown', outside);
    act(() => void showMessage({ type: 'warning', content: 'careful' }));
    const event = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    act(() => void document.body.dispatchEvent(event));
    expect(event.defaultPrevented).toBe(true);
    expect(outside).not.toHaveBeenCalled();
    expect(contents()).toEqual(['careful']);
    window.removeEventListener('keydown', outside);
  });

  it('does not close on a click on the overlay', () => {
    render(<PopupHost />);
    act(() => void showMessage({ type: 'info', content: 'stay' }));
    const wrap = document.querySelector('.wms-popup') as HTMLElement;
    act(() => {
      fireEvent.mouseDown(wrap);
      fireEvent.mouseUp(wrap);
      fireEvent.click(wrap);
    });
    expect(contents()).toEqual(['stay']);
  });

  it('defaults the button to OK and takes a button text', () => {
    render(<PopupHost />);
    act(() => void showMessage({ type: 'info', content: 'a', buttonText: 'Got it' }));
    expect(screen.getByRole('button', { name: 'Got it' })).toBeTruthy();
  });

  it('closes by itself after a duration in seconds, and stays with duration 0', () => {
    vi.useFakeTimers();
    try {
      render(<PopupHost />);
      const callback = vi.fn();
      act(() => {
        void showMessage({ type: 'info', content: 'stays' });
        void showMessage({ type: 'info', content: 'goes', duration: 2, callback });
      });
      act(() => void vi.advanceTimersByTime(1999));
      expect(contents()).toEqual(['stays', 'goes']);
      act(() => void vi.advanceTimersByTime(1));
      expect(contents()).toEqual(['stays']);
      expect(callback).toHaveBeenCalledTimes(1);
      act(() => void vi.advanceTimersByTime(60_000));
      expect(contents()).toEqual(['stays']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('popup text', () => {
  it('turns line breaks into breaks and tabs into four spaces', () => {
    const { container } = render(<div>{formatPopupText('a\tb\nc\r\nd')}</div>);
    expect(container.innerHTML).toBe('<div>a    b<br>c<br>d</div>');
  });

  it('recognizes markup', () => {
    expect(hasMarkup('Delete <b>3</b> rows?')).toBe(true);
    expect(hasMarkup('a < b and c > d')).toBe(false);
  });

  it('removes scripts and event handlers from markup', () => {
    const clean = sanitizeMarkup('<b>x</b><script>window.hacked=1</script><img src="x" onerror="window.hacked=1"><a href="javascript:alert(1)">l</a>');
    expect(clean).toContain('<b>x</b>');
    expect(clean).not.toMatch(/script|onerror|javascript:/i);
  });
});

describe('confirm popup', () => {
  it('defaults to the title Confirm, OK and Cancel, a primary OK button and the confirm icon', () => {
    render(<PopupHost />);
    act(() => void showConfirm({ content: 'Proceed?' }));
    const wrap = document.querySelector('.wms-popup-confirm')!;
    expect(wrap.querySelector('.ant-modal-title')!.textContent).toBe('Confirm');
    expect(wrap.querySelector('[data-popup-icon="confirm"]')).toBeTruthy();
    const ok = screen.getByRole('button', { name: 'OK' });
    expect(ok.className).toContain('ant-btn-primary');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it.each([
    ['danger', 'ant-btn-dangerous'],
    ['dashed', 'ant-btn-dashed'],
    ['ghost', 'ant-btn-background-ghost'],
    ['default', 'ant-btn-default'],
  ] as const)('okType %s styles the OK button', (okType, className) => {
    render(<PopupHost />);
    act(() => void showConfirm({ content: 'x', okType, okText: 'Go' }));
    expect(screen.getByRole('button', { name: 'Go' }).className).toContain(className);
  });

  it('shows only OK with okOnly, and the given title, texts and icon', () => {
    render(<PopupHost />);
    act(() => void showConfirm({ content: 'x', okOnly: true, title: 'Heads up', okText: 'Fine', iconType: 'danger' }));
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Fine' })).toBeTruthy();
    expect(document.querySelector('.ant-modal-title')!.textContent).toBe('Heads up');
    expect(document.querySelector('[data-popup-icon="danger"]')).toBeTruthy();
  });

  it('closes even when onOk throws, and resolves true', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<PopupHost />);
    let answer: Promise<boolean> | undefined;
    act(() => {
      answer = showConfirm({ content: 'x', onOk: () => Promise.reject(new Error('boom')) });
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'OK' }));
      await answer;
    });
    expect(await answer).toBe(true);
    expect(popupStack()).toHaveLength(0);
  });

  it('runs onCancel on Escape and closes only the top one', async () => {
    render(<PopupHost />);
    const onCancel = vi.fn();
    act(() => {
      void showConfirm({ content: 'below' });
      void showConfirm({ content: 'top', onCancel });
    });
    await act(async () => {
      press('Escape');
      await Promise.resolve();
    });
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(contents()).toEqual(['below']);
  });

  it('shows markup content as sanitized markup, never running scripts', () => {
    render(<PopupHost />);
    const hacked = vi.fn();
    (window as unknown as { hacked: () => void }).hacked = hacked;
    act(() => void showConfirm({ content: 'Delete <b>3</b> rows?<img src="x" onerror="window.hacked()"><script>window.hacked()</script>' }));
    const content = document.querySelector('.wms-popup-confirm .wms-popup-content')!;
    expect(content.querySelector('b')!.textContent).toBe('3');
    expect(content.innerHTML).not.toMatch(/onerror|script/i);
    expect(hacked).not.toHaveBeenCalled();
  });

  it('falls back to English Confirm and Cancel when the translation fails', async () => {
    const { labelOr } = await import('../../../src/app/popups/PopupHost');
    const failing = (() => {
      throw new Error('no translation');
    }) as never;
    const missing = ((key: string) => key) as never;
    expect(labelOr(failing, 'ui.popup.confirm', 'Confirm')).toBe('Confirm');
    expect(labelOr(missing, 'ui.popup.cancel', 'Cancel')).toBe('Cancel');
  });
});
