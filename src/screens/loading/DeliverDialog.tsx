import { useState } from 'react';
import { Alert, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

function nowLocal(): string {
  const date = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The delivery of a shipped order: when (now unless changed), the receiver's name (required) and an optional photo. */
export function DeliverDialog(props: { orderNo: string; busy: boolean; onDeliver: (values: { deliveredAt: string; receiverName: string; photo: File | null }) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [at, setAt] = useState(nowLocal);
  const [receiver, setReceiver] = useState('');
  const [photo, setPhoto] = useState<File | null>(null);
  const [missing, setMissing] = useState(false);
  const submit = () => {
    if (receiver.trim() === '') return setMissing(true);
    props.onDeliver({ deliveredAt: new Date(at).toISOString(), receiverName: receiver.trim(), photo });
  };
  return (
    <Modal open title={t('loading.screen.deliverTitle', { orderNo: props.orderNo })} okText={t('loading.screen.deliver')} onOk={submit} onCancel={props.onCancel} confirmLoading={props.busy} okButtonProps={{ id: 'loading-deliver-ok' }}>
      <div data-testid="loading-deliver-dialog" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
        <label>
          <div>{t('loading.screen.deliveredAt')}</div>
          <Input type="datetime-local" data-testid="loading-deliver-at" value={at} onChange={(event) => setAt(event.target.value)} />
        </label>
        <label>
          <div>{t('loading.screen.receiver')}</div>
          <Input
            data-testid="loading-deliver-receiver"
            autoFocus
            value={receiver}
            status={missing ? 'error' : undefined}
            onChange={(event) => {
              setReceiver(event.target.value);
              setMissing(false);
            }}
            onPressEnter={submit}
          />
        </label>
        {missing && <Alert type="error" showIcon message={t('loading.screen.receiverRequired')} />}
        <label>
          <div>{t('loading.screen.photo')}</div>
          <input type="file" accept="image/*" capture="environment" data-testid="loading-deliver-photo" onChange={(event) => setPhoto(event.target.files?.[0] ?? null)} />
        </label>
      </div>
    </Modal>
  );
}
