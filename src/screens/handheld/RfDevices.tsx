import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime, showConfirm, showSuccess, useRights, useSession } from '../../app/public';
import type { DeviceSessionRow } from '../../common/handheld-api';
import { LANGUAGES } from '../../common/languages';
import { messageOf } from '../inbound/handheld';
import * as calls from './calls';

/**
 * /rfDevices, the supervisor's screen: the handhelds signed in now in the warehouse (through
 * /api/rfUser), each with its user, the flow it runs and the time of its last scan, refreshed
 * every 15 seconds. With the edit right a supervisor ends a device's session (after a
 * confirmation): the device's next scan is refused and it signs in again.
 */
export default function RfDevices() {
  const { t } = useTranslation();
  const language = LANGUAGES[useSession((s) => s.languageCode)] ?? 'en';
  const timeZone = useSession((s) => s.status?.user.timeZone) ?? 'UTC';
  const when = (value: string | null) => (value ? formatDateTime(value, language, timeZone) : '—');
  const [rows, setRows] = useState<DeviceSessionRow[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setRows(await calls.devices());
      setProblem(null);
    } catch (error) {
      setProblem(messageOf(error));
    }
  }, []);
  const rights = useRights('handheld.rfDevices');
  const end = async (row: DeviceSessionRow) => {
    const ok = await showConfirm({ id: 'rf-device-end-confirm', content: t('hh.devices.endAsk', { deviceId: row.deviceId, user: `${row.userName} (${row.login})` }), okText: t('hh.devices.end'), okType: 'danger' });
    if (!ok) return;
    try {
      await calls.endDevice(row.id);
      void showSuccess({ type: 'success', content: t('hh.devices.ended', { deviceId: row.deviceId }) });
    } catch (error) {
      setProblem(messageOf(error));
    }
    await load();
  };
  useEffect(() => {
    void load();
    const timer = window.setInterval(() => void load(), 15_000);
    return () => window.clearInterval(timer);
  }, [load]);
  return (
    <div data-testid="rf-devices" style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('hh.devices.title')}
      </Typography.Title>
      {problem && <Alert type="error" message={problem} showIcon />}
      <div>
        <Button data-testid="rf-devices-refresh" onClick={() => void load()}>
          {t('hh.devices.refresh')}
        </Button>
      </div>
      <Table<DeviceSessionRow>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={rows}
        locale={{ emptyText: t('hh.devices.none') }}
        onRow={(row) => ({ 'data-device': row.deviceId }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { key: 'device', title: t('hh.devices.device'), dataIndex: 'deviceId' },
          { key: 'user', title: t('hh.devices.user'), render: (_: unknown, row) => `${row.userName} (${row.login})` },
          { key: 'flow', title: t('hh.devices.flow'), render: (_: unknown, row) => (row.flow ? t(`hh.fn.${row.flow}`) : '—') },
          { key: 'signedIn', title: t('hh.devices.signedInAt'), render: (_: unknown, row) => when(row.signedInAt) },
          { key: 'lastScan', title: t('hh.devices.lastScan'), render: (_: unknown, row) => <span data-testid={`rf-last-scan-${row.deviceId}`}>{when(row.lastScanAt)}</span> },
          ...(rights.edit
            ? [
                {
                  key: 'end',
                  title: '',
                  render: (_: unknown, row: DeviceSessionRow) => (
                    <Button danger size="small" data-testid={`rf-end-${row.deviceId}`} onClick={() => void end(row)}>
                      {t('hh.devices.end')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
    </div>
  );
}
