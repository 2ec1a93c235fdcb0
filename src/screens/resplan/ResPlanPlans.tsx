import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Descriptions, Empty, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ResPlanHeader, ResPlanLine, ResPlanListAnswer, ResPlanShift, ResPlanStatus, ResPlanWithLines } from '../../common/resplan-api';
import { RESPLAN_STATUSES, RESPLAN_UNITS } from '../../common/resplan-api';
import { api, ApiError, formatDateTime, showConfirm, useSession, type ActionRights } from '../../app/public';
import { LANGUAGES } from '../../common/languages';
import { EChart } from '../../app/public-widgets';
import { chartBars, chartOption } from './resplan-chart';

const STATUS_COLORS: Record<ResPlanStatus, string> = { draft: 'gold', confirmed: 'green' };
const PAGE_SIZE = 10;
const today = () => new Date().toISOString().slice(0, 10);

export type Outcome = { type: 'success' | 'error'; text: string } | null;

export function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.body.message : String(error);
}

interface Filter {
  status?: ResPlanStatus;
  planNo: string;
  dateFrom: string;
  dateTo: string;
  shiftId?: number;
}

/**
 * The plans of the warehouse: a paged list with filters, a new draft (date and shift), and the plan
 * chosen with its lines per activity and the chart of required against available hours; a draft is
 * calculated from the open work as often as wanted, confirmed (then frozen) or deleted after a
 * confirmation. Activities over capacity are marked red in the table and the chart.
 */
export function ResPlanPlans({ rights }: { rights: ActionRights }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>({ planNo: '', dateFrom: '', dateTo: '' });
  const [page, setPage] = useState(1);
  /** A changed filter lists its rows from the first page. */
  const filterBy = (change: Partial<Filter>) => {
    setPage(1);
    setFilter({ ...filter, ...change });
  };
  /** A filter chosen among a few values (the status, the shift); cleared, it filters on nothing. */
  const filterSelect = <Key extends 'status' | 'shiftId'>(key: Key, testId: string, label: string, width: number, options: Array<{ value: NonNullable<Filter[Key]>; label: string }>) => (
    <Select data-testid={testId} allowClear style={{ width }} placeholder={label} value={filter[key]} onChange={(value?: Filter[Key]) => filterBy({ [key]: value })} options={options} />
  );
  const [list, setList] = useState<ResPlanListAnswer>({ rows: [], total: 0, page: 1, pageSize: PAGE_SIZE });
  const [shifts, setShifts] = useState<ResPlanShift[]>([]);
  const [plan, setPlan] = useState<ResPlanWithLines | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [draft, setDraft] = useState<{ planDate: string; shiftId?: number; remark: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const body = {
      page,
      pageSize: PAGE_SIZE,
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.planNo.trim() ? { planNo: filter.planNo.trim() } : {}),
      ...(filter.dateFrom ? { dateFrom: filter.dateFrom } : {}),
      ...(filter.dateTo ? { dateTo: filter.dateTo } : {}),
      ...(filter.shiftId ? { shiftId: filter.shiftId } : {}),
    };
    setList(await api<ResPlanListAnswer>('/getResPlanHeaderList', { body, quiet: true }));
  }, [filter, page]);

  useEffect(() => {
    void load().catch((error: unknown) => setOutcome({ type: 'error', text: messageOf(error) }));
  }, [load]);

  useEffect(() => {
    void api<{ rows: ResPlanShift[] }>('/getResPlanShiftList', { body: {}, quiet: true }).then((answer) => setShifts(answer.rows), () => setShifts([]));
  }, []);

  const open = async (id: number) => {
    try {
      setPlan(await api<ResPlanWithLines>('/getResPlanHeader', { body: { id }, quiet: true }));
    } catch (error) {
      setOutcome({ type: 'error', text: messageOf(error) });
    }
  };

  /** Runs a change of the open plan; shows its outcome and reloads the list. */
  const run = async (work: () => Promise<ResPlanWithLines | null>, success: (plan: ResPlanWithLines | null) => string) => {
    setBusy(true);
    try {
      const changed = await work();
      setPlan(changed);
      setOutcome({ type: 'success', text: success(changed) });
    } catch (error) {
      setOutcome({ type: 'error', text: messageOf(error) });
    } finally {
      setBusy(false);
    }
    await load().catch(() => undefined);
  };

  const create = async () => {
    if (!draft) return;
    if (!draft.shiftId) return setOutcome({ type: 'error', text: t('resplan.msg.shiftRequired') });
    await run(
      () => api<ResPlanWithLines>('/saveResPlanHeader', { body: { planDate: draft.planDate, shiftId: draft.shiftId, remark: draft.remark.trim() || null }, quiet: true }),
      (p) => t('resplan.msg.created', { planNo: p?.planNo }),
    );
    setDraft(null);
  };

  const calculate = (p: ResPlanWithLines) => run(() => api<ResPlanWithLines>('/calculateResPlan', { body: { id: p.id }, quiet: true }), (c) => t('resplan.msg.calculated', { planNo: c?.planNo }));

  const confirm = async (p: ResPlanWithLines) => {
    const ok = await showConfirm({ id: 'resplan-confirm-confirm', content: t('resplan.msg.confirmAsk', { planNo: p.planNo }), okText: t('resplan.action.confirm'), cancelText: t('resplan.action.cancel') });
    if (ok) await run(() => api<ResPlanWithLines>('/confirmResPlan', { body: { id: p.id }, quiet: true }), (c) => t('resplan.msg.confirmed', { planNo: c?.planNo }));
  };

  const remove = async (p: ResPlanWithLines) => {
    const ok = await showConfirm({ id: 'resplan-delete-confirm', content: t('resplan.msg.deleteAsk', { planNo: p.planNo }), okText: t('resplan.action.delete'), cancelText: t('resplan.action.cancel'), okType: 'danger' });
    if (ok) {
      await run(async () => {
        await api('/deleteResPlanHeader', { body: { id: p.id }, quiet: true });
        return null;
      }, () => t('resplan.msg.deleted', { planNo: p.planNo }));
    }
  };

  const statusTag = (status: ResPlanStatus) => <Tag color={STATUS_COLORS[status]}>{t(`resplan.status.${status}`)}</Tag>;

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle" data-testid="resplan-plans">
      <Space wrap>
        {filterSelect('status', 'resplan-filter-status', t('resplan.field.status'), 140, RESPLAN_STATUSES.map((s) => ({ value: s, label: t(`resplan.status.${s}`) })))}
        <Input
          id="resplan-filter-planNo"
          style={{ width: 180 }}
          allowClear
          placeholder={t('resplan.field.planNo')}
          value={filter.planNo}
          onChange={(e) => filterBy({ planNo: e.target.value })}
        />
        <Input id="resplan-filter-from" type="date" aria-label={t('resplan.field.dateFrom')} value={filter.dateFrom} onChange={(e) => filterBy({ dateFrom: e.target.value })} />
        <Input id="resplan-filter-to" type="date" aria-label={t('resplan.field.dateTo')} value={filter.dateTo} onChange={(e) => filterBy({ dateTo: e.target.value })} />
        {filterSelect('shiftId', 'resplan-filter-shift', t('resplan.field.shift'), 180, shifts.map((s) => ({ value: s.id, label: `${s.code} ${s.name}` })))}
        {rights.add && (
          <Button type="primary" data-testid="resplan-new-plan" onClick={() => setDraft({ planDate: today(), shiftId: shifts.find((s) => s.active)?.id, remark: '' })}>
            {t('resplan.action.newPlan')}
          </Button>
        )}
      </Space>
      {outcome && <Alert data-testid={`resplan-outcome-${outcome.type}`} type={outcome.type} showIcon message={outcome.text} closable onClose={() => setOutcome(null)} />}
      <Table<ResPlanHeader>
        data-testid="resplan-list"
        size="small"
        rowKey="id"
        dataSource={list.rows}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: list.total, onChange: setPage, showSizeChanger: false }}
        onRow={(row) => ({ onClick: () => void open(row.id), style: { cursor: 'pointer' }, 'data-plan-no': row.planNo }) as React.HTMLAttributes<HTMLElement>}
        rowClassName={(row) => (plan?.id === row.id ? 'ant-table-row-selected' : '')}
        columns={[
          { title: t('resplan.field.planNo'), dataIndex: 'planNo' },
          { title: t('resplan.field.planDate'), dataIndex: 'planDate' },
          { title: t('resplan.field.shift'), render: (_, row) => `${row.shiftCode} ${row.shiftName}` },
          { title: t('resplan.field.status'), render: (_, row) => statusTag(row.status) },
          { title: t('resplan.field.requiredHours'), dataIndex: 'requiredLabourHours', align: 'right' },
          { title: t('resplan.field.availableHours'), dataIndex: 'availableLabourHours', align: 'right' },
          { title: t('resplan.field.capacity'), render: (_, row) => (row.calculatedAt === null ? '' : row.overCapacity ? <Tag color="red">{t('resplan.msg.overCapacity')}</Tag> : <Tag color="green">{t('resplan.msg.withinCapacity')}</Tag>) },
          { title: t('resplan.field.createdBy'), dataIndex: 'createdBy' },
        ]}
      />
      {plan ? <PlanDetail plan={plan} rights={rights} busy={busy} statusTag={statusTag} onCalculate={calculate} onConfirm={confirm} onDelete={remove} /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('resplan.msg.selectPlan')} />}
      <Modal
        open={draft !== null}
        title={t('resplan.action.newPlan')}
        okText={t('resplan.action.save')}
        cancelText={t('resplan.action.cancel')}
        okButtonProps={{ id: 'resplan-plan-save', loading: busy }}
        onOk={() => void create()}
        onCancel={() => setDraft(null)}
        destroyOnClose
      >
        {draft && (
          <Space direction="vertical" style={{ width: '100%' }} data-testid="resplan-plan-form">
            <label>
              {t('resplan.field.planDate')}
              <Input id="resplan-plan-date" type="date" value={draft.planDate} onChange={(e) => setDraft({ ...draft, planDate: e.target.value })} />
            </label>
            <label>
              {t('resplan.field.shift')}
              <Select
                data-testid="resplan-plan-shift"
                style={{ width: '100%' }}
                value={draft.shiftId}
                onChange={(shiftId: number) => setDraft({ ...draft, shiftId })}
                options={shifts.filter((s) => s.active).map((s) => ({ value: s.id, label: `${s.code} ${s.name} (${s.startTime}-${s.endTime})` }))}
              />
            </label>
            <label>
              {t('resplan.field.remark')}
              <Input id="resplan-plan-remark" value={draft.remark} onChange={(e) => setDraft({ ...draft, remark: e.target.value })} />
            </label>
          </Space>
        )}
      </Modal>
    </Space>
  );
}

function PlanDetail({
  plan,
  rights,
  busy,
  statusTag,
  onCalculate,
  onConfirm,
  onDelete,
}: {
  plan: ResPlanWithLines;
  rights: ActionRights;
  busy: boolean;
  statusTag: (status: ResPlanStatus) => React.ReactNode;
  onCalculate: (plan: ResPlanWithLines) => Promise<void>;
  onConfirm: (plan: ResPlanWithLines) => Promise<void>;
  onDelete: (plan: ResPlanWithLines) => Promise<void>;
}) {
  const { t } = useTranslation();
  const language = LANGUAGES[useSession((s) => s.languageCode)] ?? 'en';
  const timeZone = useSession((s) => s.status?.user.timeZone) ?? 'UTC';
  const when = (value: string) => formatDateTime(value, language, timeZone);
  const draft = plan.status === 'draft';
  const option = useMemo(
    () =>
      chartOption(plan.lines, {
        activity: (activity) => t(`resplan.activity.${activity}`),
        total: t('resplan.chart.total'),
        requiredLabour: t('resplan.chart.requiredLabour'),
        availableLabour: t('resplan.chart.availableLabour'),
        requiredEquipment: t('resplan.chart.requiredEquipment'),
        availableEquipment: t('resplan.chart.availableEquipment'),
      }),
    [plan.lines, t],
  );
  const bars = chartBars(plan.lines);
  const equipment = (line: ResPlanLine) => (line.equipmentKind ? t(`resplan.equipment.${line.equipmentKind}`) : '');
  return (
    <Card
      size="small"
      data-testid="resplan-detail"
      data-plan-no={plan.planNo}
      data-status={plan.status}
      title={
        <Space wrap>
          <Typography.Text strong>{plan.planNo}</Typography.Text>
          {statusTag(plan.status)}
          {plan.calculatedAt !== null && (plan.overCapacity ? <Tag color="red">{t('resplan.msg.overCapacity')}</Tag> : <Tag color="green">{t('resplan.msg.withinCapacity')}</Tag>)}
        </Space>
      }
      extra={
        <Space wrap>
          {draft && rights.edit && (
            <Button data-testid="resplan-calculate" disabled={busy} onClick={() => void onCalculate(plan)}>
              {t('resplan.action.calculate')}
            </Button>
          )}
          {draft && rights.edit && (
            <Button type="primary" data-testid="resplan-confirm" disabled={busy || plan.calculatedAt === null} onClick={() => void onConfirm(plan)}>
              {t('resplan.action.confirm')}
            </Button>
          )}
          {draft && rights.delete && (
            <Button danger data-testid="resplan-delete" disabled={busy} onClick={() => void onDelete(plan)}>
              {t('resplan.action.delete')}
            </Button>
          )}
        </Space>
      }
    >
      <Descriptions size="small" column={{ xs: 1, md: 3 }}>
        <Descriptions.Item label={t('resplan.field.planDate')}>{plan.planDate}</Descriptions.Item>
        <Descriptions.Item label={t('resplan.field.shift')}>{`${plan.shiftCode} ${plan.shiftName}`}</Descriptions.Item>
        <Descriptions.Item label={t('resplan.field.createdBy')}>{plan.createdBy}</Descriptions.Item>
        <Descriptions.Item label={t('resplan.field.requiredHours')}>{plan.requiredLabourHours ?? ''}</Descriptions.Item>
        <Descriptions.Item label={t('resplan.field.availableHours')}>{plan.availableLabourHours ?? ''}</Descriptions.Item>
        <Descriptions.Item label={t('resplan.field.calculatedAt')}>{plan.calculatedAt ? when(plan.calculatedAt) : t('resplan.msg.notCalculated')}</Descriptions.Item>
        {plan.confirmedAt && <Descriptions.Item label={t('resplan.field.confirmedAt')}>{`${when(plan.confirmedAt)} ${plan.confirmedBy ?? ''}`}</Descriptions.Item>}
        {plan.remark && <Descriptions.Item label={t('resplan.field.remark')}>{plan.remark}</Descriptions.Item>}
      </Descriptions>
      {plan.lines.length > 0 && (
        <>
          <Table<ResPlanLine>
            data-testid="resplan-lines"
            size="small"
            rowKey="activity"
            pagination={false}
            scroll={{ x: true }}
            dataSource={plan.lines}
            onRow={(line) => ({ 'data-activity': line.activity, 'data-over': String(line.overCapacity), style: line.overCapacity ? { background: '#fff1f0' } : undefined }) as React.HTMLAttributes<HTMLElement>}
            columns={[
              {
                title: t('resplan.field.activity'),
                render: (_, line) => (
                  <Space>
                    {t(`resplan.activity.${line.activity}`)}
                    {line.overCapacity && <Tag color="red">{t('resplan.msg.overCapacity')}</Tag>}
                  </Space>
                ),
              },
              { title: t('resplan.field.openQty'), render: (_, line) => `${line.openQty} ${t(`resplan.unit.${RESPLAN_UNITS[line.activity]}`)}`, align: 'right' },
              { title: t('resplan.field.unitsPerLabourHour'), render: (_, line) => line.unitsPerLabourHour ?? '', align: 'right' },
              { title: t('resplan.field.labourHours'), dataIndex: 'labourHours', align: 'right' },
              { title: t('resplan.field.availableLabour'), render: (_, line) => `${line.availableLabourHours} (${line.headcount} × ${line.hoursPerHead})`, align: 'right' },
              { title: t('resplan.field.labourGap'), render: (_, line) => <span style={{ color: line.labourGap.startsWith('-') ? '#cf1322' : undefined }}>{line.labourGap}</span>, align: 'right' },
              { title: t('resplan.field.equipmentKind'), render: (_, line) => equipment(line) },
              { title: t('resplan.field.equipmentHours'), dataIndex: 'equipmentHours', align: 'right' },
              { title: t('resplan.field.availableEquipment'), render: (_, line) => `${line.availableEquipmentHours} (${line.equipmentCount})`, align: 'right' },
              { title: t('resplan.field.equipmentGap'), render: (_, line) => <span style={{ color: line.equipmentGap.startsWith('-') ? '#cf1322' : undefined }}>{line.equipmentGap}</span>, align: 'right' },
            ]}
          />
          <Card
            size="small"
            title={t('resplan.chart.title', { shift: plan.shiftCode, date: plan.planDate })}
            data-testid="resplan-chart"
            data-bars={bars.map((b) => `${b.key}:${b.requiredLabour}:${b.availableLabour}:${b.requiredEquipment}:${b.availableEquipment}${b.over ? ':over' : ''}`).join(' ')}
            style={{ marginTop: 12 }}
          >
            <EChart testId="resplan-chart-canvas" option={option} height={300} />
          </Card>
        </>
      )}
    </Card>
  );
}
