import { useState } from 'react';
import { Button, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, download } from '../../app/public';
import type { ToolbarActionProps } from './toolbar-actions';

interface MessageContent {
  id: number;
  kind: string;
  reference: string;
  fileName: string;
  content: string;
}

/** One segment a line: after each EDIFACT `'` (not released by `?`) and each X12 `~`. */
function segmentsOf(message: MessageContent): string {
  if (message.kind === 'x12_856') return message.content.replace(/~/g, '~\n');
  return message.content.replace(/(^|[^?])((?:\?\?)*)'/g, "$1$2'\n");
}

/**
 * The EDI log's own toolbar: the raw content of the selected message, one segment a line, and its
 * download, byte for byte the interchange that was sent. Both need only the page's view right.
 */
export default function EdiLogActions({ rights, selected }: ToolbarActionProps) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<MessageContent | null>(null);
  const id = selected.length === 1 ? Number(selected[0]._key) : null;
  if (!rights.view) return null;

  const view = async () => {
    if (id === null) return;
    setShown(await api<MessageContent>('/edi/message/content', { query: { id } }));
  };
  const save = (messageId: number) => void download('/edi/message/raw', { query: { id: messageId } }).catch(() => undefined);

  return (
    <Space wrap>
      <Button disabled={id === null} onClick={() => void view().catch(() => undefined)} data-testid="edi-view">
        {t('edi.action.view')}
      </Button>
      <Button disabled={id === null} onClick={() => id !== null && save(id)} data-testid="edi-download">
        {t('edi.action.download')}
      </Button>
      <Modal
        open={shown !== null}
        title={shown ? `${shown.reference} (${shown.fileName})` : ''}
        onCancel={() => setShown(null)}
        width="min(900px, 96vw)"
        footer={[
          <Button key="download" onClick={() => shown && save(shown.id)}>
            {t('edi.action.download')}
          </Button>,
          <Button key="close" type="primary" autoFocus onClick={() => setShown(null)}>
            {t('edi.action.close')}
          </Button>,
        ]}
      >
        {shown && (
          <Typography.Paragraph copyable={{ text: shown.content }} style={{ margin: 0 }}>
            <pre data-testid="edi-content" style={{ maxHeight: '60vh', overflow: 'auto', whiteSpace: 'pre', fontSize: 12, margin: 0 }}>
              {segmentsOf(shown)}
            </pre>
          </Typography.Paragraph>
        )}
      </Modal>
    </Space>
  );
}
