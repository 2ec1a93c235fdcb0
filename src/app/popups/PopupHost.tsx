import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { Button, Modal, Space, Typography } from 'antd';
import {
  CheckCircleFilled,
  CloseCircleFilled,
  ExclamationCircleFilled,
  InfoCircleFilled,
  QuestionCircleFilled,
  WarningFilled,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ConfirmIconType, ConfirmItem, ConfirmOkType, MessageType } from '../../../engine/client/host/popups';
import { answerConfirm, closeMessage, closeTopPopup, popupStack, subscribePopups } from './popup-store';
import { formatPopupText, hasMarkup, sanitizeMarkup } from './format';

const BASE_Z_INDEX = 2000;

const MESSAGE_ICONS: Record<MessageType, ReactNode> = {
  success: <CheckCircleFilled style={{ color: '#52c41a' }} />,
  warning: <ExclamationCircleFilled style={{ color: '#faad14' }} />,
  error: <CloseCircleFilled style={{ color: '#ff4d4f' }} />,
  info: <InfoCircleFilled style={{ color: '#1677ff' }} />,
};

/** A confirm shows the message icons too, and its own question and danger signs. */
const CONFIRM_ICONS: Record<ConfirmIconType, ReactNode> = {
  ...MESSAGE_ICONS,
  confirm: <QuestionCircleFilled style={{ color: '#faad14' }} />,
  danger: <WarningFilled style={{ color: '#ff4d4f' }} />,
};

/** The frame of one popup of the stack: above those under it, the top one marked for the keyboard. */
function PopupFrame({ kind, index, top, title, footer, children }: { kind: 'message' | 'confirm'; index: number; top: boolean; title?: ReactNode; footer: ReactNode; children: ReactNode }) {
  return (
    <Modal {...POPUP_FRAME} zIndex={BASE_Z_INDEX + index * 10} wrapClassName={`wms-popup wms-popup-${kind}${top ? ' wms-popup-top' : ''}`} title={title} footer={footer}>
      {children}
    </Modal>
  );
}

/** A translation, or the English text when the lookup fails (Confirm and Cancel). */
export function labelOr(t: TFunction, key: string, english: string): string {
  try {
    const text = t(key);
    return typeof text === 'string' && text && text !== key ? text : english;
  } catch {
    return english;
  }
}

function okButtonProps(okType: ConfirmOkType) {
  switch (okType) {
    case 'danger':
      return { type: 'primary' as const, danger: true };
    case 'ghost':
      return { type: 'primary' as const, ghost: true };
    case 'dashed':
      return { type: 'dashed' as const };
    case 'default':
      return { type: 'default' as const };
    case 'primary':
      return { type: 'primary' as const };
  }
}

function ConfirmBody({ item }: { item: ConfirmItem }) {
  if (hasMarkup(item.content)) {
    return <div className="wms-popup-content" dangerouslySetInnerHTML={{ __html: sanitizeMarkup(item.content) }} />;
  }
  return (
    <div className="wms-popup-content" style={{ whiteSpace: 'pre-wrap' }}>
      {formatPopupText(item.content)}
    </div>
  );
}

/**
 * What every popup shares: the overlay click does not close it (maskClosable)
 * and antd's own Escape handling is off, because the stack closes only the most recent popup.
 */
// No opening animation: a popup is there at once, so a tap or click right after it appears (a busy
// shift, a slow handheld) lands on its buttons, not on a frame still growing into place.
const POPUP_FRAME = { open: true, centered: true, closable: false, maskClosable: false, keyboard: false, transitionName: '', maskTransitionName: '' } as const;

/**
 * Renders the popup stack. Keys are handled here, not by antd, so that the popup rules hold
 * whatever has the focus: Escape closes only the most recent popup and Enter does nothing
 * while any popup is open; the overlay never closes a popup and covers the background.
 */
export function PopupHost() {
  const { t } = useTranslation();
  const stack = useSyncExternalStore(subscribePopups, popupStack, popupStack);
  const open = stack.length > 0;

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopImmediatePropagation();
        // Key repeat would close the whole stack in one long press.
        if (!event.repeat && event.type === 'keydown') closeTopPopup();
      } else if (event.key === 'Enter') {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    };
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('keypress', onKey, true);
    window.addEventListener('keyup', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('keypress', onKey, true);
      window.removeEventListener('keyup', onKey, true);
    };
  }, [open]);

  return (
    <>
      {stack.map((entry, index) => {
        const top = index === stack.length - 1;
        // Where the entry stands in the stack: the frame of a message and of a confirmation alike.
        const place = { kind: entry.kind, index, top };
        if (entry.kind === 'message') {
          const { item } = entry;
          return (
            <PopupFrame
              key={entry.key}
              {...place}
              footer={
                <Button type="primary" className="wms-popup-ok" autoFocus={top} onClick={() => closeMessage(entry.key)}>
                  {item.buttonText ?? labelOr(t, 'ui.popup.ok', 'OK')}
                </Button>
              }
            >
              <Space align="start" data-popup-type={item.type} data-popup-id={item.id}>
                <span style={{ fontSize: 22 }}>{MESSAGE_ICONS[item.type]}</span>
                <div style={{ paddingTop: 2 }}>
                  <div className="wms-popup-content" style={{ whiteSpace: 'pre-wrap' }}>
                    {formatPopupText(item.content)}
                  </div>
                  {item.links && item.links.length > 0 && (
                    <Space wrap className="wms-popup-links" style={{ marginTop: 8 }}>
                      {item.links.map((link, i) => (
                        <Typography.Link
                          key={`${i}-${link.text}`}
                          data-testid={link.testId}
                          onClick={() => {
                            closeMessage(entry.key);
                            link.onOpen();
                          }}
                        >
                          {link.text}
                        </Typography.Link>
                      ))}
                    </Space>
                  )}
                </div>
              </Space>
            </PopupFrame>
          );
        }
        const { item, busy } = entry;
        const iconType = item.iconType ?? 'confirm';
        return (
          <PopupFrame
            key={entry.key}
            {...place}
            title={
              <Space data-popup-icon={iconType}>
                {CONFIRM_ICONS[iconType]}
                {item.title ?? labelOr(t, 'ui.popup.confirm', 'Confirm')}
              </Space>
            }
            footer={
              <Space>
                {!item.okOnly && (
                  <Button className="wms-popup-cancel" disabled={busy} onClick={() => void answerConfirm(entry.key, false)}>
                    {item.cancelText ?? labelOr(t, 'ui.popup.cancel', 'Cancel')}
                  </Button>
                )}
                <Button
                  className="wms-popup-ok"
                  autoFocus={top}
                  loading={busy}
                  {...okButtonProps(item.okType ?? 'primary')}
                  onClick={() => void answerConfirm(entry.key, true)}
                >
                  {item.okText ?? labelOr(t, 'ui.popup.ok', 'OK')}
                </Button>
              </Space>
            }
          >
            <div data-popup-id={item.id}>
              <ConfirmBody item={item} />
            </div>
          </PopupFrame>
        );
      })}
    </>
  );
}
