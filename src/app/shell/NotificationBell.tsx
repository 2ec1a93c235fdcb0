import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Badge, Button, Empty, Form, Input, Modal, Pagination, Popover, Segmented, Select, Space, Tag, Typography } from 'antd';
import { BellOutlined, SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { toLanguage } from '../../common/languages';
import { api } from '../api/client';
import { formatDateTime } from '../locale';
import { showSuccess } from '../popups';
import { FormDialog, useBusy } from '../widgets/FormDialog';
import { useSession } from '../store/session-store';
import { groupByDay, type NotificationItem } from './notification-groups';
import { followNotifications } from './notification-stream';
import { useUserOptions } from './user-options';

/** How many notifications the bell shows ("latest N"). */
const LATEST = 10;
const PAGE_SIZE = 20;

interface Latest {
  unread: number;
  items: NotificationItem[];
}

interface ListPage extends Latest {
  total: number;
}

function useFormatTime() {
  const { i18n } = useTranslation();
  const timeZone = useSession((s) => s.status?.user.timeZone) ?? 'UTC';
  const language = toLanguage(i18n.language) ?? 'en';
  return { timeZone, format: (value: string) => formatDateTime(value, language, timeZone) };
}

/** One notification: a button that marks it read and opens its link. */
function Entry({ item, onOpen, time }: { item: NotificationItem; onOpen: (item: NotificationItem) => void; time: string }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      data-testid="notification-item"
      data-id={item.id}
      data-read={item.read ? 'true' : 'false'}
      onClick={() => onOpen(item)}
      style={{
        display: 'block',
        width: '100%',
        textAlign: 'left',
        border: 0,
        borderRadius: 6,
        padding: '6px 8px',
        margin: '2px 0',
        cursor: 'pointer',
        background: item.read ? 'transparent' : '#e6f4ff',
        font: 'inherit',
      }}
    >
      <Space size={6} style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text strong={!item.read} ellipsis style={{ maxWidth: 230 }}>
          {item.title}
        </Typography.Text>
        <Tag style={{ marginInlineEnd: 0 }}>{t(`notification.category.${item.category}`, { defaultValue: item.category })}</Tag>
      </Space>
      {item.body && (
        <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0, fontSize: 12 }}>
          {item.body}
        </Typography.Paragraph>
      )}
      <Typography.Text type="secondary" style={{ fontSize: 11 }}>
        {time}
        {!item.read && ` · ${t('notification.ui.unreadTag')}`}
      </Typography.Text>
    </button>
  );
}

/** "View more": every notification of the user, paged, all or the unread ones only. */
function NotificationListDialog({ open, onClose, onOpenItem, version }: { open: boolean; onClose: () => void; onOpenItem: (item: NotificationItem) => void; version: number }) {
  const { t } = useTranslation();
  const { format } = useFormatTime();
  const [page, setPage] = useState(1);
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [data, setData] = useState<ListPage | null>(null);

  useEffect(() => {
    if (!open) return;
    api<ListPage>('/notification/list', { query: { page, pageSize: PAGE_SIZE, unreadOnly }, quiet: true })
      .then(setData)
      .catch(() => undefined);
  }, [open, page, unreadOnly, version]);

  return (
    <Modal open={open} title={t('notification.ui.listTitle')} onCancel={onClose} footer={null} destroyOnHidden width={560}>
      <div data-testid="notification-list">
        <Segmented
          value={unreadOnly ? 'unread' : 'all'}
          options={[
            { value: 'all', label: t('notification.ui.all') },
            { value: 'unread', label: t('notification.ui.unreadOnly') },
          ]}
          onChange={(value) => {
            setUnreadOnly(value === 'unread');
            setPage(1);
          }}
          style={{ marginBottom: 8 }}
        />
        {data && data.items.length === 0 ? (
          <Empty description={t('notification.ui.empty')} />
        ) : (
          <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {data?.items.map((item) => (
              <li key={item.id}>
                <Entry item={item} onOpen={onOpenItem} time={format(item.createdAt)} />
              </li>
            ))}
          </ul>
        )}
        {data && data.total > PAGE_SIZE && (
          <Pagination size="small" current={page} pageSize={PAGE_SIZE} total={data.total} showSizeChanger={false} onChange={setPage} style={{ marginTop: 8, textAlign: 'right' }} />
        )}
      </div>
    </Modal>
  );
}

interface SendForm {
  userIds: number[];
  title: string;
  body?: string;
}

/** An administrator's message to chosen users: it reaches their bells at once. */
function SendMessageDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SendForm>();
  const [busy, run] = useBusy();
  const users = useUserOptions(open);
  const submit = ({ userIds, title, body }: SendForm) =>
    run(async () => {
      try {
        const text = body?.trim();
        const answer = await api<{ recipients: number }>('/notification/send', { method: 'POST', body: { userIds, title: title.trim(), body: text ? text : undefined } });
        void showSuccess({ type: 'success', content: t('notification.ui.send.sent', { count: answer.recipients }) });
        onClose();
      } catch {
        // The error popup already told the user why.
      }
    });
  const required = (label: string) => [{ required: true, whitespace: true, message: t('notification.ui.send.required', { field: label }) }];
  return (
    <FormDialog testId="notification-send" open={open} title={t('notification.ui.send.title')} okText={t('notification.ui.send.send')} cancelText={t('ui.popup.cancel')} busy={busy} form={form} onClose={onClose}>
      <Form form={form} layout="vertical" name="sendMessage" onFinish={(v) => void submit(v)}>
        <Form.Item
          name="userIds"
          label={t('notification.ui.send.recipients')}
          rules={[{ required: true, type: 'array', min: 1, message: t('notification.ui.send.required', { field: t('notification.ui.send.recipients') }) }]}
        >
          <Select
            mode="multiple"
            showSearch
            autoFocus
            optionFilterProp="label"
            data-testid="notification-send-recipients"
            options={users}
          />
        </Form.Item>
        <Form.Item name="title" label={t('notification.ui.send.subject')} rules={required(t('notification.ui.send.subject'))}>
          <Input maxLength={500} data-testid="notification-send-subject" />
        </Form.Item>
        <Form.Item name="body" label={t('notification.ui.send.text')}>
          <Input.TextArea rows={4} maxLength={4000} data-testid="notification-send-text" />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}

/**
 * The bell of the shell header ("notification display"): the unread count, and a
 * panel of the latest notifications grouped today / yesterday / earlier in the user's time zone;
 * a click marks one read and opens its link. It follows the server's stream, so a notification
 * raised anywhere appears without reloading. An administrator sends a message to users from it.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { timeZone, format } = useFormatTime();
  const [latest, setLatest] = useState<Latest>({ unread: 0, items: [] });
  const [open, setOpen] = useState(false);
  const [listOpen, setListOpen] = useState(false);
  const [sending, setSending] = useState(false);
  const isAdmin = useSession((s) => Boolean(s.status?.user.isAdmin));
  const [version, setVersion] = useState(0);
  const panel = useRef<HTMLDivElement>(null);
  /** A button of the panel that closes it and opens a dialog in its place. */
  const closePanelFor = (openDialog: (open: boolean) => void) => () => {
    setOpen(false);
    openDialog(true);
  };
  const bell = useRef<HTMLButtonElement>(null);

  const load = useCallback(() => {
    api<Latest>('/notification/latest', { query: { limit: LATEST }, quiet: true })
      .then((answer) => {
        setLatest(answer);
        setVersion((n) => n + 1);
      })
      .catch(() => undefined);
  }, []);

  useEffect(() => followNotifications(load), [load]);

  // Keyboard: the panel opens with focus on its first control; Escape closes it and returns to the bell.
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => panel.current?.querySelector<HTMLElement>('button:not([disabled])')?.focus(), 0);
    return () => clearTimeout(timer);
  }, [open]);

  const close = () => {
    setOpen(false);
    bell.current?.focus();
  };

  const openItem = (item: NotificationItem) => {
    setOpen(false);
    const marked = item.read ? Promise.resolve() : api('/notification/read', { method: 'POST', body: { id: item.id }, quiet: true }).then(() => undefined);
    void marked.catch(() => undefined).finally(load);
    if (item.link) {
      setListOpen(false);
      void navigate(`/page/${item.link}`);
    }
  };

  const markAll = () => {
    api('/notification/readAll', { method: 'POST', quiet: true })
      .catch(() => undefined)
      .finally(load);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
    }
  };

  const content = (
    <div ref={panel} role="dialog" aria-label={t('notification.ui.bell')} data-testid="notification-panel" onKeyDown={onKeyDown} style={{ width: 340 }}>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 4 }}>
        <Typography.Text strong>{t('notification.ui.bell')}</Typography.Text>
        <Button type="link" size="small" disabled={!latest.unread} onClick={markAll} data-testid="notification-mark-all">
          {t('notification.ui.markAllRead')}
        </Button>
      </Space>
      {latest.items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notification.ui.empty')} />
      ) : (
        <div style={{ maxHeight: 420, overflowY: 'auto' }}>
          {groupByDay(latest.items, timeZone).map(({ group, items }) => (
            <section key={group} aria-label={t(`notification.ui.${group}`)} data-group={group}>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t(`notification.ui.${group}`)}
              </Typography.Text>
              <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {items.map((item) => (
                  <li key={item.id}>
                    <Entry item={item} onOpen={openItem} time={format(item.createdAt)} />
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
      <Button type="link" block data-testid="notification-view-more" onClick={closePanelFor(setListOpen)}>
        {t('notification.ui.viewMore')}
      </Button>
      {isAdmin && (
        <Button block icon={<SendOutlined />} data-testid="notification-send-open" onClick={closePanelFor(setSending)}>
          {t('notification.ui.send.open')}
        </Button>
      )}
    </div>
  );

  return (
    <>
      <Popover open={open} onOpenChange={setOpen} trigger="click" placement="bottomRight" content={content} arrow={false}>
        <Button
          ref={bell}
          type="text"
          data-testid="notification-bell"
          data-unread={latest.unread}
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-label={`${t('notification.ui.bell')}, ${t('notification.ui.unread', { count: latest.unread })}`}
          icon={
            <Badge count={latest.unread} size="small" overflowCount={99}>
              <BellOutlined style={{ color: '#fff', fontSize: 18 }} />
            </Badge>
          }
        />
      </Popover>
      <SendMessageDialog open={sending} onClose={() => setSending(false)} />
      <NotificationListDialog open={listOpen} onClose={() => setListOpen(false)} onOpenItem={openItem} version={version} />
    </>
  );
}
