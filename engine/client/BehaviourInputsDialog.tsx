import { useState } from 'react';
import { Checkbox, Form, Input, Modal, Select, Typography } from 'antd';
import type { BehaviourDefinition, BehaviourInputDefinition, ScalarValue } from '../schema/index.js';
import { useEngineServices } from './services.js';

export interface BehaviourInputsDialogProps {
  behaviour: BehaviourDefinition;
  label: (code: string) => string;
  onClose: () => void;
  /**
   * Runs the behaviour with the collected inputs. It resolves when done (the dialog closes) or
   * rejects with the call's error; field problems of a refusal are shown on their inputs.
   */
  onRun: (inputs: Record<string, ScalarValue>) => Promise<void>;
}

type FormValues = Record<string, string | boolean | undefined>;

function initialValue(input: BehaviourInputDefinition): string | boolean | undefined {
  if (input.type === 'boolean') return input.default === true || input.default === 'true';
  return input.default === undefined || input.default === null ? undefined : String(input.default);
}

/**
 * The small form a behaviour with declared `inputs` asks before it runs (e.g. the ranges of
 * "generate locations"). The dialog is the confirmation: a behaviour's confirm text is shown on
 * top of it and OK runs it. The server checks the inputs with the field rules and answers every
 * problem at once; each is shown under its input.
 */
export function BehaviourInputsDialog(props: BehaviourInputsDialogProps) {
  const services = useEngineServices();
  const inputs = props.behaviour.inputs ?? [];
  const [form] = Form.useForm<FormValues>();
  const [running, setRunning] = useState(false);

  const run = async () => {
    const values = form.getFieldsValue(true) as FormValues;
    const collected: Record<string, ScalarValue> = {};
    for (const input of inputs) {
      const value = values[input.name];
      if (typeof value === 'boolean') collected[input.name] = value;
      else if (typeof value === 'string' && value.trim() !== '') collected[input.name] = value.trim();
    }
    form.setFields(inputs.map((input) => ({ name: input.name, errors: [] })));
    setRunning(true);
    try {
      await props.onRun(collected);
    } catch (error) {
      const refusal = services.callError(error);
      if (!refusal) throw error;
      const names = new Set(inputs.map((input) => input.name));
      const placed = (refusal.details ?? []).filter((detail) => names.has(detail.field));
      form.setFields(placed.map((detail) => ({ name: detail.field, errors: [detail.message ?? detail.code] })));
      const unplaced = (refusal.details ?? []).filter((detail) => !names.has(detail.field));
      if (placed.length === 0 || unplaced.length > 0) {
        const lines = [refusal.message, ...unplaced.map((detail) => `${detail.field}: ${detail.message ?? detail.code}`)];
        await services.message({ type: 'error', content: lines.join('\n') });
      }
    } finally {
      setRunning(false);
    }
  };

  return (
    <Modal
      open
      title={props.label(props.behaviour.labelCode)}
      okText={services.t('ui.engine.ok')}
      cancelText={services.t('ui.engine.cancel')}
      confirmLoading={running}
      onOk={() => void run()}
      onCancel={props.onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'engine-behaviour-inputs-ok' }}
    >
      {props.behaviour.confirm && (
        <Typography.Paragraph data-testid="engine-behaviour-inputs-confirm">
          {props.label(props.behaviour.confirmTextCode ?? 'ui.engine.confirmRun')}
        </Typography.Paragraph>
      )}
      <Form
        form={form}
        layout="vertical"
        data-testid="engine-behaviour-inputs"
        initialValues={Object.fromEntries(inputs.map((input) => [input.name, initialValue(input)]))}
      >
        {inputs.map((input) => (
          <Form.Item
            key={input.name}
            name={input.name}
            label={props.label(input.labelCode)}
            required={input.mandatory === true}
            valuePropName={input.type === 'boolean' ? 'checked' : 'value'}
            style={{ marginBottom: 8 }}
          >
            {input.type === 'boolean' ? (
              <Checkbox data-testid={`engine-input-${input.name}`} />
            ) : input.choices ? (
              <Select
                data-testid={`engine-input-${input.name}`}
                showSearch
                optionFilterProp="label"
                allowClear={input.mandatory !== true}
                options={input.choices.map((choice) => ({ value: choice.value, label: props.label(choice.labelCode) }))}
              />
            ) : (
              <Input
                data-testid={`engine-input-${input.name}`}
                inputMode={input.type === 'integer' || input.type === 'number' ? 'decimal' : undefined}
                placeholder={input.type === 'date' ? 'YYYY-MM-DD' : undefined}
                maxLength={input.length}
              />
            )}
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
