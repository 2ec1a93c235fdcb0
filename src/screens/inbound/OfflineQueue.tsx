import { useEffect, useState } from 'react';
import { Alert, Button, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/public';
import { acknowledgeRefusal, onReplayApplied, startQueue, subscribeQueue, watchConnection, type QueueState } from './offline-queue';

/**
 * The offline queue on a handheld screen (offline-queue.ts): its state, sent again when the
 * connection returns; `onApplied` runs when waiting scans were applied (reload what they changed).
 */
export function useScanQueue(onApplied?: () => void | Promise<void>): QueueState {
  const uid = useSession((s) => s.currentUid);
  const [state, setState] = useState<QueueState>({ waiting: [], refused: [], online: true });
  useEffect(() => subscribeQueue(setState), []);
  useEffect(() => {
    watchConnection();
    void startQueue(uid);
  }, [uid]);
  useEffect(() => (onApplied ? onReplayApplied(() => void onApplied()) : undefined), [onApplied]);
  return state;
}

/**
 * "Offline — N scans waiting" (or sending), and the refusals of replayed scans the user must
 * acknowledge. `showWaiting` lists the waiting scans themselves (those of one flow when it names
 * it), for a screen whose view needs the server's answer to a scan: what it shows leaves them out
 * until they apply.
 */
export function OfflineQueueView({ state, showWaiting }: { state: QueueState; showWaiting?: boolean | string }) {
  const { t } = useTranslation();
  const count = state.waiting.length;
  const listed = showWaiting === undefined || showWaiting === false ? [] : state.waiting.filter((scan) => showWaiting === true || scan.flow === showWaiting);
  return (
    <>
      {(!state.online || count > 0) && (
        <Alert
          data-testid="offline-banner"
          data-waiting={count}
          type={state.online ? 'info' : 'warning'}
          showIcon
          style={{ fontSize: 18, fontWeight: 600 }}
          message={state.online ? t('inb.offline.sending', { count }) : t('inb.offline.waiting', { count })}
        />
      )}
      {listed.length > 0 && (
        <div data-testid="waiting-scans">
          <Typography.Text strong>{t('inb.offline.pendingTitle')}</Typography.Text>
          <List
            size="small"
            bordered
            dataSource={listed}
            renderItem={(scan) => (
              <List.Item data-testid="waiting-scan">
                <Typography.Text type="secondary">{scan.label}</Typography.Text>
              </List.Item>
            )}
          />
        </div>
      )}
      {state.refused.length > 0 && (
        <div data-testid="refused-scans">
          <Typography.Text strong type="danger">
            {t('inb.offline.refusedTitle')}
          </Typography.Text>
          <List
            size="small"
            bordered
            dataSource={state.refused}
            renderItem={(scan) => (
              <List.Item
                data-testid="refused-scan"
                actions={[
                  <Button key="ok" data-testid="refused-ack" onClick={() => scan.seq !== undefined && void acknowledgeRefusal(scan.seq)}>
                    {t('inb.offline.acknowledge')}
                  </Button>,
                ]}
              >
                <div>
                  <div style={{ fontWeight: 600 }}>{scan.label}</div>
                  <div data-testid="refused-reason">{scan.reason}</div>
                </div>
              </List.Item>
            )}
          />
        </div>
      )}
    </>
  );
}
