import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Card, Space, Table, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, ApiError, download, showConfirm, useRights } from '../../app/public';

interface JrxmlFile {
  id: number;
  fileName: string;
  size: number;
  uploadedAt: string;
  uploadedBy: string | null;
}

/** The .jrxml files of other systems (/printViewFile): uploaded, listed, downloaded as stored; never rendered. */
export default function JrxmlFilesScreen() {
  const { t } = useTranslation();
  const rights = useRights('printViewFile');
  const [rows, setRows] = useState<JrxmlFile[]>([]);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => api<JrxmlFile[]>('/template/jrxml/list', { body: {} }).then(setRows), []);
  useEffect(() => void reload(), [reload]);

  const upload = async (file: File) => {
    setError(null);
    const body = new FormData();
    body.append('file', file, file.name);
    try {
      await api('/template/jrxml/upload', { body, quiet: true });
      await reload();
    } catch (e) {
      setError(e instanceof ApiError ? e.body.message : String(e));
    }
  };
  const remove = async (row: JrxmlFile) => {
    if (!(await showConfirm({ content: t('template.jrxml.deleteConfirm', { name: row.fileName }), okType: 'danger' }))) return;
    await api('/template/jrxml/delete', { body: { id: row.id } });
    await reload();
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Alert type="info" showIcon message={t('template.jrxml.storedOnly')} />
      {error && <Alert type="error" showIcon message={error} closable onClose={() => setError(null)} />}
      <Card size="small">
        {rights.add && (
          <Upload accept=".jrxml" showUploadList={false} beforeUpload={(file) => (void upload(file), false)}>
            <Button>{t('template.jrxml.upload')}</Button>
          </Upload>
        )}
        <Table
          size="small"
          rowKey="id"
          dataSource={rows}
          pagination={false}
          columns={[
            { title: t('template.jrxml.fileName'), dataIndex: 'fileName' },
            { title: t('template.jrxml.size'), dataIndex: 'size' },
            { title: t('template.jrxml.uploadedAt'), dataIndex: 'uploadedAt' },
            { title: t('template.jrxml.uploadedBy'), dataIndex: 'uploadedBy' },
            {
              title: '',
              key: 'actions',
              render: (_: unknown, row: JrxmlFile) => (
                <Space>
                  <Button size="small" onClick={() => void download('/template/jrxml/download', { body: { id: row.id } })}>
                    {t('template.jrxml.download')}
                  </Button>
                  {rights.delete && (
                    <Button size="small" danger onClick={() => void remove(row)}>
                      {t('template.jrxml.delete')}
                    </Button>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
