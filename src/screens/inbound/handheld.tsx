import { useCallback, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { Alert, Input, Tabs, Typography, type InputRef } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, playSound } from '../../app/public';

/**
 * The kit of the handheld flows (phone-sized screen, keyboard-wedge scanner): one scan field that
 * keeps the focus whatever happens, Enter submits, big touch targets, and a success, warning or
 * error beep for every outcome (a failed playback is only logged).
 */

export type Tone = 'success' | 'warning' | 'error';

export interface Feedback {
  tone: Tone;
  text: string;
}

export function beep(tone: Tone): void {
  playSound(tone);
}

/** The message of a failed call: the server's text in the user's language. */
/**
 * One call at a time on a scanning screen: `run` refuses a second call while one runs, and tells a
 * refusal in the user's language with the error beep (`onError` sees it first); `tell` shows an
 * outcome with its beep.
 */
export function useScanCalls() {
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [busy, setBusy] = useState(false);
  const calling = useRef(false);
  const tell = useCallback((tone: Tone, text: string) => {
    setFeedback({ tone, text });
    beep(tone);
  }, []);
  const run = useCallback(
    async <T,>(work: () => Promise<T>, onError?: (error: unknown) => void): Promise<T | undefined> => {
      if (calling.current) return undefined;
      calling.current = true;
      setBusy(true);
      try {
        return await work();
      } catch (error) {
        onError?.(error);
        tell('error', messageOf(error));
        return undefined;
      } finally {
        calling.current = false;
        setBusy(false);
      }
    },
    [tell],
  );
  return { feedback, setFeedback, busy, tell, run };
}

export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.body.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The feedback line of a flow: `tell` shows a message with its beep, `fail` shows what went wrong
 * (a failed call's message, or a text) with the error beep, or the warning beep when asked.
 */
export function useFeedback() {
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const tell = useCallback((tone: Tone, text: string) => {
    setFeedback({ tone, text });
    beep(tone);
  }, []);
  const fail = useCallback((error: unknown, tone: 'warning' | 'error' = 'error') => tell(tone, typeof error === 'string' ? error : messageOf(error)), [tell]);
  return { feedback, setFeedback, tell, fail };
}

export const BIG = { minHeight: 56, fontSize: 20 } as const;

/** What a scan field shows and does, whether it keeps its text itself (`ScanField`) or its caller does (`ScanInput`). */
interface ScanFieldProps {
  label: string;
  onScan: (text: string) => void;
  testId: string;
  inputMode?: 'text' | 'decimal';
  placeholder?: string;
  disabled?: boolean;
  onEscape?: () => void;
}

/** A scan field that takes the focus back whenever it loses it, submitting its text on Enter. */
export function ScanField(props: ScanFieldProps & { initial?: string }) {
  const [value, setValue] = useState(props.initial ?? '');
  return <ScanInput {...props} value={value} onChange={setValue} />;
}

/**
 * The scan field with its text kept by the caller: it takes the focus when it shows and back
 * whenever it loses it, Escape calls `onEscape`, and Enter hands a text that is not blank to
 * `onScan` and empties the field.
 */
export function ScanInput(props: ScanFieldProps & { value: string; onChange: (text: string) => void }) {
  const ref = useRef<InputRef>(null);
  const { value, onChange } = props;
  useEffect(() => {
    // A proposed value (a default qty) is selected, so that a scan or a typed value replaces it.
    ref.current?.focus({ cursor: 'all' });
    const keep = window.setInterval(() => {
      const active = document.activeElement;
      // Back into the scan field unless the operator is in another text field or a dialog.
      if (!props.disabled && (active === null || active === document.body || active.tagName === 'BUTTON')) ref.current?.focus();
    }, 300);
    return () => window.clearInterval(keep);
  }, [props.disabled, props.label]);
  return (
    <label style={{ display: 'block' }}>
      <div style={{ fontSize: 16, marginBottom: 4 }}>{props.label}</div>
      <Input
        ref={ref}
        data-testid={props.testId}
        size="large"
        style={{ ...BIG }}
        autoComplete="off"
        inputMode={props.inputMode ?? 'text'}
        placeholder={props.placeholder}
        disabled={props.disabled}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          // Escape starts the flow over without a tap (no mouse on a handheld).
          if (event.key === 'Escape' && props.onEscape) props.onEscape();
        }}
        onPressEnter={() => {
          if (value.trim() === '') return;
          props.onScan(value);
          onChange('');
        }}
      />
    </label>
  );
}

export function FeedbackLine({ feedback }: { feedback: Feedback | null }) {
  if (!feedback) return null;
  return <Alert data-testid="handheld-feedback" data-tone={feedback.tone} type={feedback.tone} message={feedback.text} showIcon style={{ fontSize: 16 }} />;
}

/** A phone-sized column (360 px wide at most) for the handheld flows, under the flow's title. */
export function HandheldFrame({ title, children, testId }: { title: ReactNode; children: ReactNode; testId: string }) {
  return (
    <div data-testid={testId} style={{ maxWidth: 360, width: '100%', display: 'flex', flexDirection: 'column', gap: 12 }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      {children}
    </div>
  );
}

/** One tab of a screen with a handheld flow: its key, the locale key of its label and what it shows. */
export interface ScreenTab {
  key: string;
  labelKey: string;
  Content: ComponentType;
}

/**
 * A screen of tabs, one of them the handheld flow (key `handheld`): a narrow display (a phone or a
 * handheld) opens on it, a wider one on the first tab. Only the open tab is mounted.
 */
export function HandheldTabs({ testId, tabs }: { testId: string; tabs: readonly ScreenTab[] }) {
  const { t } = useTranslation();
  const narrow = typeof window !== 'undefined' && window.innerWidth < 600;
  const [tab, setTab] = useState(narrow ? 'handheld' : tabs[0].key);
  return (
    <div data-testid={testId}>
      <Tabs activeKey={tab} onChange={setTab} destroyInactiveTabPane items={tabs.map(({ key, labelKey, Content }) => ({ key, label: t(labelKey), children: <Content /> }))} />
    </div>
  );
}
