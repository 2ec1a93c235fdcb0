import { createContext, useContext, type ComponentType } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import type { ScalarValue } from '../schema/index.js';
import type { GenericRow } from '../schema/api.js';
import type { ConfirmItem, MessageItem } from './host/popups.js';

/** One field's problem as the server reports it (`details` of a 400/409 answer, docs/architecture.md "Errors"). */
export interface EngineFieldError {
  field: string;
  code: string;
  message?: string;
  params?: Record<string, string | number>;
}

/** A refused call as the engine needs to see it: status, stable code, text, field problems. */
export interface EngineCallError {
  status: number;
  code: string;
  message: string;
  details?: EngineFieldError[];
}

export interface EngineCallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, string | number | boolean | undefined>;
  /** The engine shows the error itself (on a form field); the host must not pop it up. */
  quiet?: boolean;
}

/** Progress of a transfer, 0..1, or null while its size is unknown. */
export type TransferProgress = (fraction: number | null) => void;

/**
 * Everything the engine needs from the application that hosts it, so the engine stays apart from
 * the screens: it never imports `src/`, never calls `fetch` or touches browser storage
 * itself; the host fills this interface (src/app/engine-services.tsx) and tests can fill it too.
 */
export interface EngineServices {
  /** A JSON call to `/api<path>`; rejects with something `callError` understands. */
  call<T>(path: string, body?: unknown, options?: EngineCallOptions): Promise<T>;
  /** A blob call (export) saved under the server's file name. */
  download(path: string, body: unknown, onProgress?: TransferProgress): Promise<void>;
  /** A multipart upload (import) with upload progress. */
  upload<T>(path: string, form: FormData, onProgress?: TransferProgress): Promise<T>;
  /** The server's error of a rejected call, or undefined when it was not an API refusal. */
  callError(error: unknown): EngineCallError | undefined;
  /** The global confirm popup; true on OK. */
  confirm(item: ConfirmItem): Promise<boolean>;
  /** The global message popup; resolves when it closes. */
  message(item: MessageItem): Promise<void>;
  /** Opens another page filtered by field values (a hyperlink). */
  openPage(moduleCode: string, functionCode: string, filter: Record<string, ScalarValue>): void;
  /**
   * The caller's rights on another page (a sub-page tab, a hyperlink's target), as the host knows
   * them: the engine offers no page whose opening the server would refuse. Absent: every page is offered.
   */
  pageRights?: (moduleCode: string, functionCode: string) => Promise<HostToolbarActionProps['rights']>;
  /** Opens the preview of an attachment (an image or a PDF) at the host's preview screen; absent: no preview. */
  previewAttachment?(id: number): void;
  /** Translates a locale key of the host's catalogue. */
  t(key: string, params?: Record<string, unknown>): string;
  /** True when the host's catalogue has this key (labels may instead be multilingual text codes). */
  hasText(key: string): boolean;
  /** The user's language code (en, zh, zh_tw, kor, th, jp). */
  language: string;
  /** A stored date and time as the user reads it: in the user's time zone and language. */
  formatDateTime?: (value: string) => string;
  /** Who is signed in, to keep per-user preferences apart; null when unknown. */
  userKey: string | null;
  /**
   * Form inputs the host brings, by name: a field whose `format` names one is edited with it (a
   * `cron` field with the host's cron expression editor). The engine knows none of them. The
   * form's record as it is now is in the form context (`registry.formContext.record`).
   */
  widgets?: Readonly<Record<string, ComponentType<WidgetProps>>>;
  /**
   * Toolbar actions the host brings, by page (`<moduleCode>/<functionCode>`): each is rendered
   * after the page's own buttons when the page is opened on its own, e.g. a dialog of the host's
   * that makes a record in one step. A sub-page tab has its own key,
   * `<parent moduleCode>/<parent functionCode>/<tab code>`. The engine knows none of them.
   */
  toolbarActions?: Readonly<Record<string, ComponentType<HostToolbarActionProps>>>;
  /** Per-user preferences (column choice); the host decides where they live. */
  preferences: { get(key: string): string | null; set(key: string, value: string): void };
}

/** What a host's toolbar action gets: the page's rights for the caller, the selected rows, and a reload of the list. */
export interface HostToolbarActionProps {
  rights: { view: boolean; add: boolean; edit: boolean; delete: boolean };
  selected: readonly GenericRow[];
  reload: () => void;
}

export const EngineServicesContext = createContext<EngineServices | null>(null);

/**
 * True while the host's user asks for reduced motion (the host reads the system setting): the grid
 * then adds and sorts rows without animating them. A context of its own rather than a field of the
 * services, so that a change of the setting does not rebuild the services, which reloads the page.
 */
export const ReducedMotionContext = createContext(false);

/** The confirm popup of a deletion (a red Delete button, the warning icon); true on OK. */
export function confirmDeletion(services: EngineServices, content: string): Promise<boolean> {
  return services.confirm({ content, okType: 'danger', iconType: 'warning', okText: services.t('ui.engine.delete'), cancelText: services.t('ui.engine.cancel') });
}

/** The host's services; throws when the host forgot the provider (a programming error). */
export function useEngineServices(): EngineServices {
  const services = useContext(EngineServicesContext);
  if (!services) throw new Error('PageView needs an EngineServicesContext provider from its host');
  return services;
}
