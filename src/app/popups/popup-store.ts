import type { ConfirmItem, HostPopups, MessageItem } from '../../../engine/client/host/popups';
import { playPopupSound } from './sound';

/**
 * The stack of open popups: message and confirm popups stack, the most
 * recent on top; closing a message runs its callback exactly once; a confirm closes even when its
 * callback fails. Components render this stack; nothing else holds popup state.
 */
export type PopupEntry =
  | { key: number; kind: 'message'; item: MessageItem }
  | { key: number; kind: 'confirm'; item: ConfirmItem; busy: boolean };

type Settle = { message: () => void; confirm: (ok: boolean) => void };

let stack: readonly PopupEntry[] = [];
let nextKey = 1;
const listeners = new Set<() => void>();
const settlers = new Map<number, Partial<Settle>>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function publish(next: readonly PopupEntry[]) {
  stack = next;
  for (const listener of listeners) listener();
}

export function subscribePopups(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function popupStack(): readonly PopupEntry[] {
  return stack;
}

export function showMessage(item: MessageItem): Promise<void> {
  const key = nextKey++;
  playPopupSound(item.type);
  return new Promise<void>((resolve) => {
    settlers.set(key, { message: resolve });
    publish([...stack, { key, kind: 'message', item }]);
    // Duration 0 (the default) keeps the popup until the user closes it.
    if (item.duration && item.duration > 0) timers.set(key, setTimeout(() => closeMessage(key), item.duration * 1000));
  });
}

export function showConfirm(item: ConfirmItem): Promise<boolean> {
  const key = nextKey++;
  return new Promise<boolean>((resolve) => {
    settlers.set(key, { confirm: resolve });
    publish([...stack, { key, kind: 'confirm', item, busy: false }]);
  });
}

function remove(key: number) {
  const timer = timers.get(key);
  if (timer) clearTimeout(timer);
  timers.delete(key);
  settlers.delete(key);
  publish(stack.filter((entry) => entry.key !== key));
}

/** Closes a message popup and runs its callback; a second close of the same popup does nothing. */
export function closeMessage(key: number): void {
  const entry = stack.find((e) => e.key === key);
  if (!entry || entry.kind !== 'message') return;
  const settle = settlers.get(key)?.message;
  remove(key);
  try {
    entry.item.callback?.();
  } catch (error) {
    console.error('message popup callback failed', error);
  }
  settle?.();
}

/**
 * Answers a confirm popup: runs onOk or onCancel and closes the popup whatever the callback does
 * ("Confirm actions close the popup even if the callback fails").
 */
export async function answerConfirm(key: number, ok: boolean): Promise<void> {
  const entry = stack.find((e) => e.key === key);
  if (!entry || entry.kind !== 'confirm' || entry.busy) return;
  const settle = settlers.get(key)?.confirm;
  publish(stack.map((e) => (e.key === key ? { ...entry, busy: true } : e)));
  try {
    await (ok ? entry.item.onOk : entry.item.onCancel)?.();
  } catch (error) {
    console.error(`confirm popup ${ok ? 'onOk' : 'onCancel'} failed`, error);
  } finally {
    remove(key);
    settle?.(ok);
  }
}

/** Escape: closes the most recent popup only; a confirm counts it as Cancel. */
export function closeTopPopup(): void {
  const top = stack[stack.length - 1];
  if (!top) return;
  if (top.kind === 'message') closeMessage(top.key);
  else void answerConfirm(top.key, false);
}

/** Closes everything without running callbacks: used when the session ends. */
export function clearPopups(): void {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  settlers.clear();
  publish([]);
}

export const popups: HostPopups = { showMessage, showConfirm };
