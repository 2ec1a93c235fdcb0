import { useCallback, useEffect, useRef, useState, type HTMLAttributes } from 'react';
import { Alert, Button, Input, Modal, Progress, Space, Table, Typography } from 'antd';
import type { PageDefinition } from '../schema/index.js';
import { confirmDeletion, useEngineServices } from './services.js';

/** One attachment as `/generic/getAttachment` answers it. */
export interface AttachmentItem {
  id: number;
  fileName: string;
  remark: string | null;
  contentType: string;
  size: number;
  previewable: boolean;
  createdAt: string;
  createdBy: string | null;
}

interface Listing {
  attachments: AttachmentItem[];
  totalBytes: number;
  limitBytes: number;
}

export interface AttachmentsDialogProps {
  page: PageDefinition;
  /** The record's key (`_key`). */
  recordKey: string | number;
  /** The page's edit right: upload, update and delete. */
  canEdit: boolean;
  onClose: () => void;
}

/** Sizes as people read them: 512 B, 3.4 KB, 12.0 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The cap as the server's message names it ("500 MB"). */
function limitText(bytes: number): string {
  return `${Math.floor(bytes / (1024 * 1024))} MB`;
}

/**
 * The attachments of one record (a screen without a path): the list with
 * preview, download, rename, replace and delete, and an upload of several files with its progress.
 * Uploads that would bring the record past the cap are refused here before anything is sent, with
 * the server's own message and the cap it reports; the server checks again.
 */
export function AttachmentsDialog(props: AttachmentsDialogProps) {
  const services = useEngineServices();
  const { page, recordKey, canEdit } = props;
  const [listing, setListing] = useState<Listing | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [remark, setRemark] = useState('');
  const [progress, setProgress] = useState<number | null | undefined>(undefined);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [editing, setEditing] = useState<AttachmentItem | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const ref = { moduleCode: page.moduleCode, functionCode: page.functionCode, recordKey: String(recordKey) };

  const reload = useCallback(async () => {
    try {
      setListing(await services.call<Listing>('/generic/getAttachment', { moduleCode: page.moduleCode, functionCode: page.functionCode, recordKey: String(recordKey) }));
    } catch {
      // Shown by the host.
    }
  }, [services, page.moduleCode, page.functionCode, recordKey]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const refuse = (message: string) => {
    setRefusal(message);
    void services.message({ type: 'error', content: message });
  };

  const upload = async () => {
    if (!listing || files.length === 0) return;
    const adding = files.reduce((sum, file) => sum + file.size, 0);
    if (listing.totalBytes + adding > listing.limitBytes) {
      refuse(services.t('errors.ATTACHMENT_TOTAL_TOO_LARGE', { limit: limitText(listing.limitBytes) }));
      return;
    }
    const form = new FormData();
    form.append('moduleCode', ref.moduleCode);
    form.append('functionCode', ref.functionCode);
    form.append('recordKey', ref.recordKey);
    if (remark.trim()) form.append('remark', remark.trim());
    for (const file of files) form.append('file', file, file.name);
    setRefusal(null);
    setProgress(0);
    try {
      setListing(await services.upload<Listing>('/generic/uploadAttachment', form, (fraction) => setProgress(fraction)));
      setFiles([]);
      setRemark('');
      if (input.current) input.current.value = '';
    } catch (error) {
      const failed = services.callError(error);
      refuse(failed?.message ?? String(error));
    } finally {
      setProgress(undefined);
    }
  };

  const remove = async (item: AttachmentItem) => {
    const ok = await confirmDeletion(services, services.t('ui.attachment.confirmDelete', { name: item.fileName }));
    if (!ok) return;
    try {
      await services.call('/generic/deleteAttachment', { id: item.id });
    } catch {
      // Shown by the host.
    }
    await reload();
  };

  const download = async (item: AttachmentItem) => {
    try {
      await services.download('/generic/downloadAttachment', { id: item.id });
    } catch {
      // Shown by the host.
    }
  };

  const selectedBytes = files.reduce((sum, file) => sum + file.size, 0);

  return (
    <Modal
      open
      width={860}
      title={services.t('ui.attachment.title', { key: String(recordKey) })}
      footer={
        <Button data-testid="attachments-close" onClick={props.onClose}>
          {services.t('ui.attachment.close')}
        </Button>
      }
      maskClosable={false}
      onCancel={props.onClose}
    >
      <Space direction="vertical" style={{ width: '100%' }} data-testid="attachments-dialog">
        {listing && (
          <Typography.Text type="secondary" data-testid="attachments-usage">
            {services.t('ui.attachment.usage', { used: formatBytes(listing.totalBytes), limit: limitText(listing.limitBytes) })}
          </Typography.Text>
        )}
        <Table<AttachmentItem>
          size="small"
          rowKey="id"
          pagination={false}
          loading={listing === null}
          dataSource={listing?.attachments ?? []}
          data-testid="attachments-list"
          onRow={(item) => ({ 'data-attachment': item.fileName }) as HTMLAttributes<HTMLElement>}
          columns={[
            { key: 'name', title: services.t('ui.attachment.fileName'), dataIndex: 'fileName', ellipsis: true },
            { key: 'size', title: services.t('ui.attachment.size'), width: 90, render: (_, item) => formatBytes(item.size) },
            { key: 'type', title: services.t('ui.attachment.type'), dataIndex: 'contentType', width: 150, ellipsis: true },
            { key: 'remark', title: services.t('ui.attachment.remark'), dataIndex: 'remark', ellipsis: true },
            {
              key: 'actions',
              width: 300,
              render: (_, item) => (
                <Space size={4} wrap>
                  {item.previewable && services.previewAttachment && (
                    <Button size="small" data-testid="attachment-preview" onClick={() => services.previewAttachment?.(item.id)}>
                      {services.t('ui.attachment.preview')}
                    </Button>
                  )}
                  <Button size="small" data-testid="attachment-download" onClick={() => void download(item)}>
                    {services.t('ui.attachment.download')}
                  </Button>
                  {canEdit && (
                    <Button size="small" data-testid="attachment-edit" onClick={() => setEditing(item)}>
                      {services.t('ui.engine.edit')}
                    </Button>
                  )}
                  {canEdit && (
                    <Button size="small" danger data-testid="attachment-delete" onClick={() => void remove(item)}>
                      {services.t('ui.engine.delete')}
                    </Button>
                  )}
                </Space>
              ),
            },
          ]}
        />
        {canEdit && (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Space wrap>
              <input
                ref={input}
                type="file"
                multiple
                data-testid="attachments-file-input"
                onChange={(event) => {
                  setFiles(Array.from(event.target.files ?? []));
                  setRefusal(null);
                }}
              />
              <Input
                style={{ width: 260 }}
                maxLength={500}
                placeholder={services.t('ui.attachment.remark')}
                value={remark}
                data-testid="attachments-remark"
                onChange={(event) => setRemark(event.target.value)}
              />
              <Button type="primary" data-testid="attachments-upload" disabled={files.length === 0} loading={progress !== undefined} onClick={() => void upload()}>
                {services.t('ui.attachment.upload', { count: files.length })}
              </Button>
            </Space>
            {files.length > 0 && (
              <Typography.Text type="secondary" data-testid="attachments-selected">
                {services.t('ui.attachment.selected', { count: files.length, size: formatBytes(selectedBytes) })}
              </Typography.Text>
            )}
            {progress !== undefined && (
              <Progress data-testid="attachments-progress" percent={progress === null ? 50 : Math.round(progress * 100)} status="active" />
            )}
            {refusal && <Alert type="error" showIcon message={refusal} data-testid="attachments-refused" />}
          </Space>
        )}
      </Space>
      {editing && (
        <EditAttachment
          item={editing}
          listing={listing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void reload();
          }}
        />
      )}
    </Modal>
  );
}

/** Rename, change the remark or replace the file of one attachment. */
function EditAttachment(props: { item: AttachmentItem; listing: Listing | null; onClose: () => void; onSaved: () => void }) {
  const services = useEngineServices();
  const [fileName, setFileName] = useState(props.item.fileName);
  const [remark, setRemark] = useState(props.item.remark ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    const { listing } = props;
    if (file && listing && listing.totalBytes - props.item.size + file.size > listing.limitBytes) {
      void services.message({ type: 'error', content: services.t('errors.ATTACHMENT_TOTAL_TOO_LARGE', { limit: limitText(listing.limitBytes) }) });
      return;
    }
    const form = new FormData();
    form.append('id', String(props.item.id));
    if (fileName.trim() && fileName !== props.item.fileName) form.append('fileName', fileName.trim());
    if (remark !== (props.item.remark ?? '')) form.append('remark', remark);
    if (file) form.append('file', file, file.name);
    setBusy(true);
    try {
      await services.upload('/generic/updateAttachment', form);
      props.onSaved();
    } catch (error) {
      void services.message({ type: 'error', content: services.callError(error)?.message ?? String(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={services.t('ui.attachment.editTitle')}
      okText={services.t('ui.attachment.save')}
      cancelText={services.t('ui.engine.cancel')}
      confirmLoading={busy}
      okButtonProps={{ id: 'attachment-edit-save' }}
      onOk={() => void save()}
      onCancel={props.onClose}
    >
      <Space direction="vertical" style={{ width: '100%' }} data-testid="attachment-edit-dialog">
        <Input addonBefore={services.t('ui.attachment.fileName')} maxLength={255} value={fileName} data-testid="attachment-edit-name" onChange={(e) => setFileName(e.target.value)} />
        <Input addonBefore={services.t('ui.attachment.remark')} maxLength={500} value={remark} data-testid="attachment-edit-remark" onChange={(e) => setRemark(e.target.value)} />
        <Typography.Text type="secondary">{services.t('ui.attachment.replace')}</Typography.Text>
        <input type="file" data-testid="attachment-edit-file" onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
      </Space>
    </Modal>
  );
}
