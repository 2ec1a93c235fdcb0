import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Drawer, Input, List, Select, Space, Table, Tag, Timeline, Typography } from 'antd';
import { PaperClipOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { LANGUAGES } from '../../common/languages';
import { formatDateTime, useRights, useSession } from '../../app/public';
import { CreateTicketDialog } from './CreateTicketDialog';
import { ATTACHMENT_LIMIT_BYTES, supportApi, type LogEntry, type MessageFile, type Ticket, type TicketDetail } from './support-api';

const STATUS_COLOURS: Record<Ticket['status'], string> = { open: 'blue', answered: 'green', closed: 'default' };

/**
 * Support tickets (`/support`): the tickets the user may see (his own; every ticket
 * of his projects for an answerer), a ticket's messages and log, answering, closing and reopening,
 * approving a reopen-ASN request, notes on its log, and the create-ticket dialog. A ticket's link
 * (`/page/support?ticket=<number>`) opens that ticket.
 */
export default function SupportScreen() {
  const { t } = useTranslation();
  const language = LANGUAGES[useSession((s) => s.languageCode)] ?? 'en';
  const timeZone = useSession((s) => s.status?.user.timeZone) ?? 'UTC';
  const when = (value: string) => formatDateTime(value, language, timeZone);
  const [status, setStatus] = useState<string>();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<{ total: number; rows: Ticket[] }>({ total: 0, rows: [] });
  const [creating, setCreating] = useState(false);
  const [openId, setOpenId] = useState<number>();
  const [params, setParams] = useSearchParams();
  const linked = params.get('ticket');

  useEffect(() => {
    if (!linked) return;
    supportApi
      .byNumber(linked)
      .then((detail) => setOpenId(detail.header.id))
      .catch(() => undefined);
  }, [linked]);

  const closeTicket = () => {
    setOpenId(undefined);
    if (linked) setParams({}, { replace: true });
  };

  const load = useCallback(async () => {
    setAnswer(await supportApi.list({ status, search: search.trim() || undefined, page, pageSize: 20 }));
  }, [status, search, page]);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <div data-testid="support-screen" style={{ padding: 16 }}>
      <Space style={{ marginBottom: 12 }} wrap>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="support-create-open">
          {t('support.ui.create')}
        </Button>
        <Select
          allowClear
          style={{ width: 160 }}
          placeholder={t('support.ui.status')}
          value={status}
          onChange={(value) => {
            setStatus(value);
            setPage(1);
          }}
          options={(['open', 'answered', 'closed'] as const).map((s) => ({ value: s, label: t(`support.status.${s}`) }))}
        />
        <Input.Search
          allowClear
          placeholder={t('support.ui.search')}
          onSearch={(value) => {
            setSearch(value);
            setPage(1);
          }}
          style={{ width: 240 }}
        />
        <Button icon={<ReloadOutlined />} onClick={() => void load()} />
      </Space>
      <Table<Ticket>
        data-testid="support-list"
        rowKey="id"
        size="small"
        dataSource={answer.rows}
        locale={{ emptyText: t('support.ui.empty') }}
        pagination={{ current: page, pageSize: 20, total: answer.total, onChange: setPage, showSizeChanger: false }}
        onRow={(row) => ({ onClick: () => setOpenId(row.id), style: { cursor: 'pointer' } })}
        columns={[
          { title: t('support.ui.number'), dataIndex: 'number', width: 130 },
          { title: t('support.ui.project'), dataIndex: 'projectCode', width: 110 },
          { title: t('support.ui.subject'), dataIndex: 'subject' },
          { title: t('support.ui.type'), dataIndex: 'type', width: 80 },
          { title: t('support.ui.priority'), dataIndex: 'priority', width: 100, render: (p: string) => t(`support.priority.${p}`) },
          {
            title: t('support.ui.status'),
            dataIndex: 'status',
            width: 110,
            render: (s: Ticket['status']) => <Tag color={STATUS_COLOURS[s]}>{t(`support.status.${s}`)}</Tag>,
          },
          { title: t('support.ui.requester'), dataIndex: 'requester', width: 120 },
          { title: t('support.ui.updated'), dataIndex: 'updatedAt', width: 170, render: (v: string) => when(v) },
        ]}
      />
      <CreateTicketDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={() => {
          setCreating(false);
          setPage(1);
          void load();
        }}
      />
      {openId !== undefined && <TicketDrawer ticketId={openId} when={when} onClose={closeTicket} onChanged={() => void load()} />}
    </div>
  );
}

/** The address of a ticket's link: opening it shows the ticket on this screen. */
function ticketLink(number: string): string {
  return `${window.location.origin}${window.location.pathname}#/page/support?ticket=${encodeURIComponent(number)}`;
}

/** A note's text after its log line. */
function noteOf(entry: LogEntry): string {
  const note = entry.details?.note;
  return entry.action === 'note' && typeof note === 'string' ? `: ${note}` : '';
}

function TicketDrawer({ ticketId, when, onClose, onChanged }: { ticketId: number; when: (v: string) => string; onClose: () => void; onChanged: () => void }) {
  const { t } = useTranslation();
  const [detail, setDetail] = useState<TicketDetail>();
  const [log, setLog] = useState<LogEntry[]>([]);
  const [message, setMessage] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [attached, setAttached] = useState<MessageFile[]>([]);
  const [note, setNote] = useState('');
  // Only what the server would allow is offered: messages and notes need the add right, closing and reopening the edit right.
  const rights = useRights('support');
  const tooLarge = files.reduce((sum, file) => sum + file.size, 0) > ATTACHMENT_LIMIT_BYTES;

  const load = useCallback(async () => {
    const [d, l, a] = await Promise.all([supportApi.detail(ticketId), supportApi.log(ticketId), supportApi.attachments(ticketId)]);
    setDetail(d);
    setLog(l);
    setAttached(a.items);
  }, [ticketId]);

  useEffect(() => {
    void load();
  }, [load]);

  async function act(work: () => Promise<unknown>) {
    await work();
    await load();
    onChanged();
  }

  const header = detail?.header;
  return (
    <Drawer open width={560} onClose={onClose} title={header ? `${header.number} ${header.subject}` : t('support.ui.detail')} data-testid="support-detail">
      {header && (
        <>
          <Space wrap style={{ marginBottom: 12 }}>
            <Tag color={STATUS_COLOURS[header.status]}>{t(`support.status.${header.status}`)}</Tag>
            {header.type === 'A01' && (
              <Tag>
                {t('support.ui.asnNumber')}: {header.asnNumber} · {header.requestStatus ? t(`support.request.${header.requestStatus}`) : ''}
              </Tag>
            )}
            {rights.edit &&
              (header.status === 'closed' ? (
                <Button onClick={() => void act(() => supportApi.reopen(ticketId))}>{t('support.ui.reopen')}</Button>
              ) : (
                <Button onClick={() => void act(() => supportApi.close(ticketId))}>{t('support.ui.close')}</Button>
              ))}
            {header.type === 'A01' && header.requestStatus === 'pending' && header.status !== 'closed' && (
              <Button type="primary" onClick={() => void act(() => supportApi.approve(ticketId))}>
                {t('support.ui.approve')}
              </Button>
            )}
          </Space>
          <List
            data-testid="support-messages"
            dataSource={detail.messages}
            renderItem={(m) => (
              <List.Item>
                <List.Item.Meta
                  title={`${m.author} · ${when(m.at)}`}
                  description={
                    <>
                      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{m.text}</Typography.Paragraph>
                      {attached
                        .filter((file) => file.messageId === m.id)
                        .map((file) => (
                          <Button key={file.id} type="link" size="small" icon={<PaperClipOutlined />} data-testid="support-attachment" onClick={() => void supportApi.downloadAttachment(file.id).catch(() => undefined)}>
                            {file.fileName}
                          </Button>
                        ))}
                    </>
                  }
                />
              </List.Item>
            )}
          />
          {rights.add && header.status !== 'closed' && (
            <Space.Compact style={{ width: '100%', margin: '12px 0' }}>
              <Input.TextArea value={message} onChange={(e) => setMessage(e.target.value)} rows={2} maxLength={4000} />
              <Button
                type="primary"
                disabled={!message.trim() || tooLarge}
                data-testid="support-send-message"
                onClick={() =>
                  void act(async () => {
                    if (files.length > 0) await supportApi.messageWithFiles(ticketId, message, files);
                    else await supportApi.message(ticketId, message);
                    setMessage('');
                    setFiles([]);
                  })
                }
              >
                {t('support.ui.addMessage')}
              </Button>
            </Space.Compact>
          )}
          {rights.add && header.status !== 'closed' && (
            <Space direction="vertical" style={{ width: '100%', marginBottom: 12 }}>
              <label>
                <PaperClipOutlined /> {t('support.ui.attach')}{' '}
                <input type="file" multiple data-testid="support-files" onChange={(e) => setFiles(Array.from(e.target.files ?? []))} />
              </label>
              {/* The attachment cap is refused before the upload starts (and again by the server). */}
              {tooLarge && <Alert type="error" showIcon message={t('errors.ATTACHMENT_TOTAL_TOO_LARGE', { limit: '500 MB' })} />}
            </Space>
          )}
          <Typography.Paragraph type="secondary" copyable={{ text: ticketLink(header.number) }} data-testid="support-link">
            {t('support.ui.link')}: {ticketLink(header.number)}
          </Typography.Paragraph>
          <Typography.Title level={5}>{t('support.ui.log')}</Typography.Title>
          {rights.add && (
            <Space.Compact style={{ width: '100%', marginBottom: 12 }}>
              <Input value={note} onChange={(e) => setNote(e.target.value)} maxLength={1000} placeholder={t('support.ui.note')} data-testid="support-note" />
              <Button
                disabled={!note.trim()}
                data-testid="support-save-note"
                onClick={() =>
                  void act(async () => {
                    await supportApi.saveNote(ticketId, note.trim());
                    setNote('');
                  }).catch(() => undefined)
                }
              >
                {t('support.ui.addNote')}
              </Button>
            </Space.Compact>
          )}
          <Timeline
            data-testid="support-log"
            items={log.map((entry) => ({ children: `${when(entry.at)} · ${entry.by} · ${t(`support.log.${entry.action}`, { defaultValue: entry.action })}${noteOf(entry)}` }))}
          />
        </>
      )}
    </Drawer>
  );
}
