import { useEffect, useRef, useState } from 'react';
import { Input, type InputRef } from 'antd';
import { BIG } from '../inbound/handheld';

/**
 * The scan field of the pack flow: it takes the focus back whenever nothing else that takes typing
 * has it (not while a popup is open), Enter submits its text, Escape steps back, and a key the flow
 * gives a meaning (`onKey`, only while the field is empty) does that instead of being typed. A scan
 * whose handler answers `false` was not saved (no answer came): its text comes back into the field,
 * so that nothing is lost and Enter sends it again.
 */
export function PackScanField(props: {
  label: string;
  onScan: (text: string) => void | Promise<boolean | void>;
  onEscape: () => void;
  onKey?: (key: string) => boolean;
  inputMode?: 'text' | 'decimal';
  disabled?: boolean;
  testId?: string;
}) {
  const ref = useRef<InputRef>(null);
  const [value, setValue] = useState('');
  useEffect(() => {
    ref.current?.focus();
    const keep = window.setInterval(() => {
      if (props.disabled || document.querySelector('.ant-modal-wrap')) return;
      const active = document.activeElement;
      // Another text field keeps the focus; a button, a check box or nothing gives it back.
      const typing = active instanceof HTMLTextAreaElement || (active instanceof HTMLInputElement && ['text', 'search', 'number', ''].includes(active.type));
      if (!typing) ref.current?.focus();
    }, 300);
    return () => window.clearInterval(keep);
  }, [props.disabled, props.label]);
  // Back in the field as soon as a call is over.
  useEffect(() => {
    if (!props.disabled) ref.current?.focus();
  }, [props.disabled]);
  return (
    <label style={{ display: 'block' }}>
      <div style={{ fontSize: 16, marginBottom: 4 }}>{props.label}</div>
      <Input
        ref={ref}
        data-testid={props.testId ?? 'pack-scan'}
        size="large"
        style={BIG}
        autoComplete="off"
        inputMode={props.inputMode ?? 'text'}
        disabled={props.disabled}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            setValue('');
            props.onEscape();
          } else if (value === '' && props.onKey?.(event.key)) event.preventDefault();
        }}
        onPressEnter={() => {
          if (value.trim() === '') return;
          const text = value;
          setValue('');
          const done = props.onScan(text);
          if (done instanceof Promise) {
            void done.then((saved) => {
              if (saved === false) setValue((now) => (now === '' ? text : now));
            });
          }
        }}
      />
    </label>
  );
}
