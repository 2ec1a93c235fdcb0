/**
 * The page tests/e2e/popups.test.ts opens: the shell's real popup module (src/app/popups) with the
 * real PopupHost mounted, as App.tsx mounts it, and nothing else of the application. The test
 * drives it through `window.harness`, which lives only here and never in the product build: it
 * opens message and confirm popups and counts how often each popup's callbacks ran.
 *
 * Behind the popups sit a button and a text field that count the clicks and Enter presses that
 * reach them, so that the test can tell that the overlay and the Enter key reach nothing.
 */
import { createRoot } from 'react-dom/client';
import '../../../src/app/i18n';
import { PopupHost, showConfirm, showMessage, type MessageType } from '../../../src/app/popups';
import { popupStack } from '../../../src/app/popups/popup-store';

export interface HarnessMessage {
  id: string;
  type?: MessageType;
  content: string;
  /** Seconds before the popup closes by itself. */
  duration?: number;
}

export interface HarnessConfirm {
  id: string;
  content: string;
  title?: string;
  /** onOk throws at once; 'async' makes it reject after a tick instead. */
  okThrows?: boolean | 'async';
  cancelThrows?: boolean;
  /** onOk answers a promise that settles only when the test calls `release(id)`. */
  okHeld?: boolean;
}

export interface Harness {
  /** How often each named callback ran: `<id>.callback`, `<id>.onOk`, `<id>.onCancel`. */
  calls: Record<string, number>;
  /** What each popup's promise resolved to (`true` for a closed message). */
  settled: Record<string, boolean>;
  /** Clicks and Enter presses that reached the page behind the popups. */
  background: { clicks: number; enters: number };
  /** Errors thrown past the popup module (uncaught errors and unhandled rejections). */
  uncaught: string[];
  message(item: HarnessMessage): void;
  confirm(item: HarnessConfirm): void;
  /** The ids of the open popups, bottom to top, as the popup store holds them. */
  stack(): string[];
  /** Settles the held onOk of the confirm with this id (`okHeld`). */
  release(id: string): void;
}

/** The held onOk promises' resolvers by confirm id. */
const held = new Map<string, () => void>();

const calls: Record<string, number> = {};
const count = (name: string) => {
  calls[name] = (calls[name] ?? 0) + 1;
};

const harness: Harness = {
  calls,
  settled: {},
  background: { clicks: 0, enters: 0 },
  uncaught: [],
  message({ id, type = 'info', content, duration }) {
    void showMessage({ id, type, content, duration, callback: () => count(`${id}.callback`) }).then(() => {
      harness.settled[id] = true;
    });
  },
  confirm({ id, content, title, okThrows, cancelThrows, okHeld }) {
    void showConfirm({
      id,
      content,
      title,
      onOk: () => {
        count(`${id}.onOk`);
        if (okThrows === 'async') return Promise.reject(new Error(`${id} onOk rejected`));
        if (okThrows) throw new Error(`${id} onOk failed`);
        if (okHeld) return new Promise<void>((resolve) => held.set(id, resolve));
      },
      onCancel: () => {
        count(`${id}.onCancel`);
        if (cancelThrows) throw new Error(`${id} onCancel failed`);
      },
    }).then((ok) => {
      harness.settled[id] = ok;
    });
  },
  stack: () => popupStack().map((entry) => entry.item.id ?? ''),
  release: (id) => held.get(id)?.(),
};

window.addEventListener('error', (event) => harness.uncaught.push(String(event.message)));
window.addEventListener('unhandledrejection', (event) => harness.uncaught.push(String(event.reason)));
(window as unknown as { harness: Harness }).harness = harness;

function Background() {
  return (
    <div style={{ padding: 0 }}>
      <button
        id="background-button"
        style={{ position: 'fixed', left: 0, top: 0, width: 200, height: 60 }}
        onClick={() => harness.background.clicks++}
      >
        background
      </button>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          harness.background.enters++;
        }}
      >
        <input
          id="background-input"
          style={{ position: 'fixed', left: 0, bottom: 0, width: 200 }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') harness.background.enters++;
          }}
        />
      </form>
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <>
    <Background />
    <PopupHost />
  </>,
);
