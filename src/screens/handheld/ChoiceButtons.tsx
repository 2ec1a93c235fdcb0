import { useEffect, useRef } from 'react';
import { Button, Space, Typography } from 'antd';
import { BIG } from '../inbound/handheld';
import type { Choice } from './actions/types';

/**
 * The answers of a runtime question or step offered as buttons (e.g. a short pick's "find it
 * elsewhere" or "give the rest back"): the first is the default and takes the focus, so Enter
 * chooses it; Escape steps back as in the scan field. The focus moves only after the Enter that
 * answered the step before is over: focused at once, the button would receive that key press and
 * choose by itself.
 */
export function ChoiceButtons(props: { prompt: string; choices: Choice[]; disabled?: boolean; onChoose: (value: string) => void; onEscape: () => void }) {
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const timer = window.setTimeout(() => first.current?.focus(), 0);
    return () => window.clearTimeout(timer);
  }, []);
  return (
    <Space
      direction="vertical"
      style={{ width: '100%' }}
      data-testid="rf-choices"
      onKeyDown={(event) => {
        if (event.key === 'Escape') props.onEscape();
      }}
    >
      <Typography.Text style={{ fontSize: 16 }}>{props.prompt}</Typography.Text>
      {props.choices.map((choice, i) => (
        <Button
          key={choice.value}
          ref={i === 0 ? first : undefined}
          block
          type={i === 0 ? 'primary' : 'default'}
          disabled={props.disabled}
          style={{ ...BIG, height: 'auto', whiteSpace: 'normal' }}
          data-testid={`rf-choice-${choice.value}`}
          onClick={() => props.onChoose(choice.value)}
        >
          {choice.label}
        </Button>
      ))}
    </Space>
  );
}
