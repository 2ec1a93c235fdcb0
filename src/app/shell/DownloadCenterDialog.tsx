import { useCallback, useEffect, useState, type HTMLAttributes } from 'react';
import { Button, Modal, Progress, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, download } from '../api/client';
import { formatDateTime } from '../locale';
import { showConfirm } from '../popups';
import { useSession } from '../store/session-store';
import { toLanguage } from '../../common/languages';

interface DownloadFile {
  id: number;
  title: string;
  fileName: string;
  status: 'running' | 'done' | 'failed';
  rowsWritten: number;
  rowsTotal: number | null;
  size: number | null;
  error: string | null;
  createdAt: string;
  expiresAt: string;
}

const POLL_MS = 1500;

function sizeText(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The download center (a screen without a path): the user's background exports
 * with their progress, refreshed while one runs; finished files are downloaded or deleted, and
 * each shows when it expires.
 */
export function DownloadCenterDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const timeZone = useSession((s) => s.status?.user.timeZone) ?? 'UTC';
  const [files, setFiles] = useState<DownloadFile[] | null>(null);
  const when = (value: string) => formatDateTime(value, toLanguage(i18n.language) ?? 'en', timeZone);

  const reload = useCallback(async () => {
    try {
      setFiles((await api<{ files: DownloadFile[] }>('/download/list')).files);
    } catch {
      setFiles([]);
    }
  }, []);

  useEffect(() => {
    if (open) void reload();
    else setFiles(null);
  }, [open, reload]);

  const running = files?.some((file) => file.status === 'running') ?? false;
  useEffect(() => {
    if (!open || !running) return;
    const timer = setInterval(() => void reload(), POLL_MS);
    return () => clearInterval(timer);
  }, [open, running, reload]);

  const remove = (file: DownloadFile) =>
    showConfirm({
      content: t('ui.download.confirmDelete', { name: file.fileName }),
      okType: 'danger',
      iconType: 'warning',
      okText: t('ui.download.delete'),
      onOk: async () => {
        try {
          await api('/download/delete', { method: 'POST', body: { id: file.id } });
        } finally {
          await reload();
        }
      },
    });

  return (
    <Modal open={open} width={900} title={t('ui.download.title')} footer={<Button onClick={onClose}>{t('ui.download.close')}</Button>} onCancel={onClose} destroyOnHidden>
      <Space direction="vertical" style={{ width: '100%' }} data-testid="download-center">
        <Typography.Text type="secondary">{t('ui.download.hint')}</Typography.Text>
        <Table<DownloadFile>
          size="small"
          rowKey="id"
          pagination={false}
          loading={files === null}
          dataSource={files ?? []}
          onRow={(file) => ({ 'data-download': file.fileName, 'data-status': file.status }) as HTMLAttributes<HTMLElement>}
          columns={[
            { key: 'title', title: t('ui.download.file'), render: (_, file) => <span title={file.fileName}>{file.title}</span> },
            {
              key: 'status',
              title: t('ui.download.status'),
              width: 200,
              render: (_, file) =>
                file.status === 'running' ? (
                  <Progress
                    size="small"
                    status="active"
                    percent={file.rowsTotal ? Math.min(99, Math.round((file.rowsWritten / file.rowsTotal) * 100)) : 0}
                    format={() => `${file.rowsWritten}/${file.rowsTotal ?? '?'}`}
                  />
                ) : file.status === 'done' ? (
                  <Tag color="green">{t('ui.download.done', { count: file.rowsWritten })}</Tag>
                ) : (
                  <Tag color="red" title={file.error ?? ''}>
                    {t('ui.download.failed')}
                  </Tag>
                ),
            },
            { key: 'size', title: t('ui.download.size'), width: 90, render: (_, file) => sizeText(file.size) },
            { key: 'created', title: t('ui.download.created'), width: 150, render: (_, file) => when(file.createdAt) },
            { key: 'expires', title: t('ui.download.expires'), width: 150, render: (_, file) => when(file.expiresAt) },
            {
              key: 'actions',
              width: 170,
              render: (_, file) => (
                <Space size={4}>
                  <Button
                    size="small"
                    data-testid="download-file"
                    disabled={file.status !== 'done'}
                    onClick={() => void download('/download/file', { method: 'POST', body: { id: file.id } }).catch(() => undefined)}
                  >
                    {t('ui.download.download')}
                  </Button>
                  <Button size="small" danger data-testid="download-delete" disabled={file.status === 'running'} onClick={() => void remove(file)}>
                    {t('ui.download.delete')}
                  </Button>
                </Space>
              ),
            },
          ]}
        />
      </Space>
    </Modal>
  );
}
