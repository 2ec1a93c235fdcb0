import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Popconfirm, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api, ApiError, fetchBlob } from '../../app/public';
import { CompactTable } from '../../app/public-widgets';
import type { PickTasksAnswer, PickTaskView, WaveListAnswer, WaveSummary } from '../../common/outbound-api';

function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.body.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Pick tasks of a wave, grouped by zone and sorted by location sequence, with the wave's progress,
 * the pick list PDF (refused before allocation) and unpick of a picked task. A task whose short
 * pick put stock on hold at its location shows how much and the count ticket that settles it.
 */
export default function PickTasks() {
  const { t } = useTranslation();
  const [waves, setWaves] = useState<WaveSummary[]>([]);
  const [waveId, setWaveId] = useState<number | null>(null);
  const [tasks, setTasks] = useState<PickTaskView[]>([]);
  const [error, setError] = useState<string | null>(null);

  const loadWaves = useCallback(async () => {
    const answer = await api<WaveListAnswer>('/wave/list', { body: {}, quiet: true });
    setWaves(answer.rows);
    setWaveId((current) => current ?? answer.rows[0]?.id ?? null);
  }, []);

  const loadTasks = useCallback(async () => {
    if (waveId === null) return setTasks([]);
    const answer = await api<PickTasksAnswer>('/pick/tasks', { body: { waveId }, quiet: true });
    setTasks(answer.tasks);
  }, [waveId]);

  useEffect(() => {
    loadWaves().catch((e: unknown) => setError(messageOf(e)));
  }, [loadWaves]);
  useEffect(() => {
    loadTasks().catch((e: unknown) => setError(messageOf(e)));
  }, [loadTasks]);

  const print = async () => {
    setError(null);
    // Opened before the answer arrives so that the browser does not block it as a pop-up.
    const view = window.open('', '_blank');
    try {
      const file = await fetchBlob('/pick/list.pdf', { query: { waveId: waveId ?? undefined }, quiet: true });
      const url = URL.createObjectURL(file.blob);
      if (view) view.location.href = url;
      else window.location.assign(url);
    } catch (e) {
      view?.close();
      setError(messageOf(e));
    }
  };

  const unpick = async (task: PickTaskView) => {
    setError(null);
    try {
      await api('/pick/unpick', { body: { taskId: task.id }, quiet: true });
      await Promise.all([loadTasks(), loadWaves()]);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const wave = waves.find((w) => w.id === waveId);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="pick-tasks">
      <Space wrap>
        <Select
          data-testid="pick-wave"
          style={{ minWidth: 220 }}
          placeholder={t('outbound.pick.chooseWave')}
          value={waveId ?? undefined}
          onChange={(value: number) => setWaveId(value)}
          options={waves.map((w) => ({ value: w.id, label: `${w.wave_no} · ${t(`outbound.wave.status.${w.status}`)}` }))}
        />
        <Button data-testid="pick-print" disabled={waveId === null} onClick={() => void print()}>
          {t('outbound.pick.printList')}
        </Button>
      </Space>
      {wave && (
        <Typography.Text data-testid="pick-wave-progress">
          {t('outbound.pick.progress', { orders: wave.order_count, lines: wave.line_count, qty: Number(wave.qty), allocated: Number(wave.allocated_qty), picked: Number(wave.picked_qty), open: wave.open_tasks })}
        </Typography.Text>
      )}
      {error && <Alert type="error" showIcon message={error} data-testid="pick-error" />}
      <CompactTable<PickTaskView>
        rowKey="id"
        dataSource={tasks}
        columns={[
          { title: t('outbound.wave.zone'), dataIndex: 'zone', render: (zone: string | null) => zone ?? '-' },
          { title: t('outbound.wave.location'), dataIndex: 'location_code' },
          { title: t('outbound.field.sku'), dataIndex: 'sku_code' },
          { title: t('outbound.field.lotNo'), render: (_, task) => [task.lot_no, task.expiry_date].filter(Boolean).join(' ') },
          { title: t('outbound.field.qty'), render: (_, task) => `${Number(task.picked_qty)} / ${Number(task.qty)}` },
          { title: t('outbound.field.order'), render: (_, task) => `${task.order_no}/${task.line_no}` },
          { title: t('outbound.field.status'), dataIndex: 'status', render: (status: string) => <Tag>{t(`outbound.pick.status.${status}`)}</Tag> },
          {
            title: t('outbound.pick.held'),
            render: (_, task) =>
              Number(task.held_qty) > 0 ? (
                <Tag color="orange" data-testid={`pick-held-${task.id}`}>
                  {t('outbound.pick.heldOnTask', { qty: Number(task.held_qty), ticketNo: task.count_ticket_no ?? '-' })}
                </Tag>
              ) : null,
          },
          {
            title: '',
            render: (_, task) =>
              Number(task.picked_qty) > 0 ? (
                // Unpick moves stock back: asked first, as every other undo of the outbound screens.
                <Popconfirm title={t('outbound.pick.unpickConfirm')} onConfirm={() => void unpick(task)}>
                  <Button size="small" data-testid={`unpick-${task.id}`}>
                    {t('outbound.pick.unpick')}
                  </Button>
                </Popconfirm>
              ) : null,
          },
        ]}
      />
    </Space>
  );
}
