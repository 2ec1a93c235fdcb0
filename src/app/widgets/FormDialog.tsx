import { useState, type ReactNode } from 'react';
import { Button, Modal, type ButtonProps, type FormInstance } from 'antd';

/**
 * Runs a dialog's submit with its OK button spinning until it ends; the work handles its own
 * failures (an error popup has told the user, or the dialog shows the message).
 */
export function useBusy(): [busy: boolean, run: (work: () => Promise<void>) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  async function run(work: () => Promise<void>): Promise<void> {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  }
  return [busy, run];
}

/**
 * The submit of a dialog that closes once its work is done: the OK button spins while `work` runs;
 * when it ends, `onDone` (the caller reloads what changed) and `onClose` run. When it throws, the
 * dialog stays open with what was entered, and `onFailed` gets the error (the default ignores it:
 * an error popup has told the user).
 */
export function useSubmitAndClose(
  onDone: () => void,
  onClose: () => void,
): [busy: boolean, submit: (work: () => Promise<void>, onFailed?: (error: unknown) => void) => Promise<void>] {
  const [busy, run] = useBusy();
  const submit = (work: () => Promise<void>, onFailed: (error: unknown) => void = () => undefined) =>
    run(async () => {
      try {
        await work();
      } catch (error) {
        onFailed(error);
        return;
      }
      onDone();
      onClose();
    });
  return [busy, submit];
}

/**
 * A dialog around one form: OK submits `form` (or runs `submit`, for a dialog whose OK is not a
 * form's submit), Cancel and the close button call `onClose`, and the form's fields are dropped
 * once the dialog is closed.
 */
export function FormDialog({
  open,
  title,
  okText,
  cancelText,
  busy,
  form,
  submit = () => form?.submit(),
  onClose,
  okButtonProps,
  testId,
  children,
}: {
  open: boolean;
  title: ReactNode;
  okText: ReactNode;
  cancelText: ReactNode;
  busy: boolean;
  form?: FormInstance;
  submit?: () => void;
  onClose: () => void;
  okButtonProps?: ButtonProps & { id?: string };
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={cancelText}
      confirmLoading={busy}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={okButtonProps}
      data-testid={testId}
    >
      {children}
    </Modal>
  );
}

/**
 * A dialog that only shows something (nothing to submit): its one button, Close (with `closeId`),
 * and the close button call `onClose`; what it shows is dropped once it is closed.
 */
export function ViewDialog({ title, closeText, closeId, onClose, width, children }: { title: ReactNode; closeText: ReactNode; closeId: string; onClose: () => void; width?: number; children: ReactNode }) {
  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      footer={
        <Button id={closeId} onClick={onClose}>
          {closeText}
        </Button>
      }
      width={width}
      destroyOnHidden
    >
      {children}
    </Modal>
  );
}
