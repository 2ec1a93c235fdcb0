import type { ReactNode } from 'react';
import { Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';

/** A button whose action runs once the user confirms it in a popup (OK / Cancel in the designer's words). */
export function ConfirmButton({
  title,
  onConfirm,
  testId,
  children,
  danger = false,
  dangerOk = false,
  small = false,
}: {
  title: string;
  onConfirm: () => void;
  testId: string;
  children: ReactNode;
  danger?: boolean;
  /** The popup's OK button is red too. */
  dangerOk?: boolean;
  small?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Popconfirm title={title} okText={t('ui.designer.ok')} okButtonProps={dangerOk ? { danger: true } : undefined} cancelText={t('ui.designer.cancel')} onConfirm={onConfirm}>
      <Button size={small ? 'small' : undefined} danger={danger} data-testid={testId}>
        {children}
      </Button>
    </Popconfirm>
  );
}
