import { useEffect } from 'react';
import { App } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { MessageItem } from '../../../engine/client/host/popups';
import { playPopupSound } from './sound';

let messages: MessageInstance | undefined;

/**
 * Lends the app's message API (antd's App context) to `showSuccess`: antd's static message
 * functions do not render under React 19. Mounted once inside antd's App.
 */
export function ToastHost() {
  const { message } = App.useApp();
  useEffect(() => {
    messages = message;
    return () => {
      if (messages === message) messages = undefined;
    };
  }, [message]);
  return null;
}

/** How long a plain success stays on screen. */
export const TOAST_SECONDS = 3;

/**
 * A plain success: a short-lived message that closes by itself and never takes the keyboard, so a
 * scanner or keyboard user goes on without a click. Warnings, errors and
 * confirms keep the blocking popups; a success that asks for a duration
 * of its own, or a callback, or a button, is a popup too.
 */
export function showSuccess(item: MessageItem): Promise<void> {
  playPopupSound('success');
  void messages?.open({ type: 'success', content: item.content, duration: TOAST_SECONDS, className: 'wms-toast' });
  return Promise.resolve();
}

/** Whether a message is a plain success that a short-lived message should carry; one offering links stays until closed. */
export function isPlainSuccess(item: MessageItem): boolean {
  return item.type === 'success' && item.duration === undefined && item.callback === undefined && item.buttonText === undefined && (item.links ?? []).length === 0;
}
