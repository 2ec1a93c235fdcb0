import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Card, Checkbox, Input, Select, Space, Switch, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { RESPLAN_ACTIVITIES, RESPLAN_EQUIPMENT_KINDS, RESPLAN_UNITS, type ResPlanActivity, type ResPlanEquipmentKind, type ResPlanRate, type ResPlanShift, type ResPlanShiftFields } from '../../common/resplan-api';
import { api, showConfirm, type ActionRights } from '../../app/public';
import { CompactTable } from '../../app/public-widgets';
import { messageOf, type Outcome } from './ResPlanPlans';

const DAYS = [1, 2, 3, 4, 5, 6, 7] as const;

interface ResourceDraft {
  headcount: string;
  hoursPerHead: string;
  equipmentCount: string;
}

interface ShiftDraft extends ResPlanShiftFields {
  id?: number;
  active: boolean;
  resources: Record<ResPlanActivity, ResourceDraft>;
}

const emptyResources = (): Record<ResPlanActivity, ResourceDraft> =>
  Object.fromEntries(RESPLAN_ACTIVITIES.map((a) => [a, { headcount: '', hoursPerHead: '', equipmentCount: '' }])) as Record<ResPlanActivity, ResourceDraft>;

const newShift = (): ShiftDraft => ({ code: '', name: '', startTime: '06:00', endTime: '14:00', daysOfWeek: [1, 2, 3, 4, 5], active: true, resources: emptyResources() });

function draftOf(shift: ResPlanShift): ShiftDraft {
  const resources = emptyResources();
  for (const r of shift.resources) resources[r.activity] = { headcount: String(r.headcount), hoursPerHead: r.hoursPerHead, equipmentCount: String(r.equipmentCount) };
  return { id: shift.id, code: shift.code, name: shift.name, startTime: shift.startTime, endTime: shift.endTime, daysOfWeek: shift.daysOfWeek, active: shift.active, resources };
}

function OutcomeLine({ outcome, testId }: { outcome: Outcome; testId: string }) {
  return outcome ? <Alert data-testid={`${testId}-${outcome.type}`} type={outcome.type} showIcon message={outcome.text} /> : null;
}

/**
 * The shifts of the warehouse: code, name, start and end time (through midnight when it ends
 * earlier), the days of the week it runs, and per activity the heads, the hours each works (the
 * shift's length when left empty) and the equipment. A shift a plan names cannot be deleted; it is
 * made inactive instead.
 */
export function ResPlanShifts({ rights }: { rights: ActionRights }) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<ResPlanShift[]>([]);
  const [draft, setDraft] = useState<ShiftDraft | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const load = useCallback(async () => setRows((await api<{ rows: ResPlanShift[] }>('/getResPlanShiftList', { body: {}, quiet: true })).rows), []);
  useEffect(() => {
    void load().catch((error: unknown) => setOutcome({ type: 'error', text: messageOf(error) }));
  }, [load]);

  const save = async () => {
    if (!draft) return;
    const resources = RESPLAN_ACTIVITIES.flatMap((activity) => {
      const r = draft.resources[activity];
      if (r.headcount.trim() === '' && r.equipmentCount.trim() === '') return [];
      return [{ activity, headcount: Number(r.headcount || 0), equipmentCount: Number(r.equipmentCount || 0), ...(r.hoursPerHead.trim() ? { hoursPerHead: r.hoursPerHead.trim() } : {}) }];
    });
    const body = { ...(draft.id ? { id: draft.id } : {}), code: draft.code, name: draft.name, startTime: draft.startTime, endTime: draft.endTime, daysOfWeek: draft.daysOfWeek, active: draft.active, resources };
    try {
      const saved = await api<ResPlanShift>('/saveResPlanShift', { body, quiet: true });
      setOutcome({ type: 'success', text: t('resplan.msg.shiftSaved', { code: saved.code }) });
      setDraft(null);
    } catch (error) {
      setOutcome({ type: 'error', text: messageOf(error) });
    }
    await load().catch(() => undefined);
  };

  const remove = async (shift: ResPlanShift) => {
    const ok = await showConfirm({ id: 'resplan-shift-delete-confirm', content: t('resplan.msg.deleteShiftAsk', { code: shift.code }), okText: t('resplan.action.delete'), cancelText: t('resplan.action.cancel'), okType: 'danger' });
    if (!ok) return;
    try {
      await api('/deleteResPlanShift', { body: { id: shift.id }, quiet: true });
      setOutcome({ type: 'success', text: t('resplan.msg.shiftDeleted', { code: shift.code }) });
    } catch (error) {
      setOutcome({ type: 'error', text: messageOf(error) });
    }
    await load().catch(() => undefined);
  };

  const setResource = (activity: ResPlanActivity, field: keyof ResourceDraft, value: string) =>
    draft && setDraft({ ...draft, resources: { ...draft.resources, [activity]: { ...draft.resources[activity], [field]: value } } });

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle" data-testid="resplan-shifts">
      {rights.edit && !draft && (
        <Button type="primary" data-testid="resplan-new-shift" onClick={() => setDraft(newShift())}>
          {t('resplan.action.newShift')}
        </Button>
      )}
      <OutcomeLine outcome={outcome} testId="resplan-shift-outcome" />
      {draft && (
        <Card size="small" title={draft.id ? t('resplan.action.editShift', { code: draft.code }) : t('resplan.action.newShift')} data-testid="resplan-shift-form">
          <Space direction="vertical" style={{ width: '100%' }}>
            <Space wrap>
              <Input id="resplan-shift-code" style={{ width: 140 }} placeholder={t('resplan.field.code')} value={draft.code} onChange={(e) => setDraft({ ...draft, code: e.target.value })} />
              <Input id="resplan-shift-name" style={{ width: 220 }} placeholder={t('resplan.field.name')} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
              <Input id="resplan-shift-start" type="time" aria-label={t('resplan.field.startTime')} value={draft.startTime} onChange={(e) => setDraft({ ...draft, startTime: e.target.value })} />
              <Input id="resplan-shift-end" type="time" aria-label={t('resplan.field.endTime')} value={draft.endTime} onChange={(e) => setDraft({ ...draft, endTime: e.target.value })} />
              <Space>
                {t('resplan.field.active')}
                <Switch data-testid="resplan-shift-active" checked={draft.active} onChange={(active) => setDraft({ ...draft, active })} />
              </Space>
            </Space>
            <Checkbox.Group
              data-testid="resplan-shift-days"
              value={draft.daysOfWeek}
              onChange={(days) => setDraft({ ...draft, daysOfWeek: (days).slice().sort((a, b) => a - b) })}
              options={DAYS.map((d) => ({ value: d, label: t(`resplan.day.${d}`) }))}
            />
            <CompactTable
              rowKey="activity"
              dataSource={RESPLAN_ACTIVITIES.map((activity) => ({ activity }))}
              columns={[
                { title: t('resplan.field.activity'), render: (_, { activity }) => t(`resplan.activity.${activity}`) },
                {
                  title: t('resplan.field.headcount'),
                  render: (_, { activity }) => <Input id={`resplan-res-${activity}-headcount`} type="number" min={0} style={{ width: 100 }} value={draft.resources[activity].headcount} onChange={(e) => setResource(activity, 'headcount', e.target.value)} />,
                },
                {
                  title: t('resplan.field.hoursPerHead'),
                  render: (_, { activity }) => (
                    <Input id={`resplan-res-${activity}-hours`} type="number" min={0} max={24} step="0.25" style={{ width: 110 }} placeholder={t('resplan.msg.shiftLength')} value={draft.resources[activity].hoursPerHead} onChange={(e) => setResource(activity, 'hoursPerHead', e.target.value)} />
                  ),
                },
                {
                  title: t('resplan.field.equipmentCount'),
                  render: (_, { activity }) => <Input id={`resplan-res-${activity}-equipment`} type="number" min={0} style={{ width: 100 }} value={draft.resources[activity].equipmentCount} onChange={(e) => setResource(activity, 'equipmentCount', e.target.value)} />,
                },
              ]}
            />
            <Space>
              <Button type="primary" data-testid="resplan-shift-save" onClick={() => void save()}>
                {t('resplan.action.save')}
              </Button>
              <Button onClick={() => setDraft(null)}>{t('resplan.action.cancel')}</Button>
            </Space>
          </Space>
        </Card>
      )}
      <CompactTable<ResPlanShift>
        data-testid="resplan-shift-list"
        rowKey="id"
        dataSource={rows}
        onRow={(row) => ({ 'data-code': row.code }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('resplan.field.code'), dataIndex: 'code' },
          { title: t('resplan.field.name'), dataIndex: 'name' },
          { title: t('resplan.field.time'), render: (_, row) => `${row.startTime}-${row.endTime} (${row.hours} h)` },
          { title: t('resplan.field.days'), render: (_, row) => row.daysOfWeek.map((d) => t(`resplan.day.${d}`)).join(' ') },
          { title: t('resplan.field.active'), render: (_, row) => (row.active ? <Tag color="green">{t('resplan.msg.yes')}</Tag> : <Tag>{t('resplan.msg.no')}</Tag>) },
          {
            title: t('resplan.field.resources'),
            render: (_, row) => row.resources.map((r) => <div key={r.activity}>{t('resplan.msg.resource', { activity: t(`resplan.activity.${r.activity}`), headcount: r.headcount, hours: r.hoursPerHead, equipment: r.equipmentCount })}</div>),
          },
          {
            title: '',
            render: (_, row) => (
              <Space>
                {rights.edit && (
                  <Button size="small" data-testid={`resplan-shift-edit-${row.code}`} onClick={() => setDraft(draftOf(row))}>
                    {t('resplan.action.edit')}
                  </Button>
                )}
                {rights.delete && (
                  <Button size="small" danger data-testid={`resplan-shift-delete-${row.code}`} onClick={() => void remove(row)}>
                    {t('resplan.action.delete')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
    </Space>
  );
}

interface RateDraft {
  labour: string;
  kind: ResPlanEquipmentKind | null;
  equipment: string;
}

/**
 * The rates of the warehouse, one per activity: units of its work per labour hour, and the
 * equipment it needs with units per equipment hour. A plan with open work of an activity without a
 * rate cannot be calculated.
 */
export function ResPlanRates({ rights }: { rights: ActionRights }) {
  const { t } = useTranslation();
  const [rates, setRates] = useState<ResPlanRate[]>([]);
  const [drafts, setDrafts] = useState<Record<string, RateDraft>>({});
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [loaded, setLoaded] = useState(false);

  /**
   * Reads the stored rates and fills the form of `activities` from them (every row at first, the
   * row just saved or deleted later): what is being typed in another row meanwhile stays.
   */
  const load = useCallback(async (activities: readonly ResPlanActivity[] = RESPLAN_ACTIVITIES) => {
    const rows = (await api<{ rows: ResPlanRate[] }>('/getResPlanRateList', { body: {}, quiet: true })).rows;
    setRates(rows);
    setLoaded(true);
    setDrafts((current) => ({
      ...current,
      ...Object.fromEntries(
        activities.map((activity) => {
          const rate = rows.find((r) => r.activity === activity);
          return [activity, { labour: rate?.unitsPerLabourHour ?? '', kind: rate?.equipmentKind ?? null, equipment: rate?.unitsPerEquipmentHour ?? '' }];
        }),
      ),
    }));
  }, []);
  useEffect(() => {
    void load().catch((error: unknown) => setOutcome({ type: 'error', text: messageOf(error) }));
  }, [load]);

  const change = (activity: ResPlanActivity, value: Partial<RateDraft>) => setDrafts((current) => ({ ...current, [activity]: { ...current[activity], ...value } }));

  const save = async (activity: ResPlanActivity) => {
    const d = drafts[activity];
    const body = { activity, unitsPerLabourHour: d.labour.trim(), equipmentKind: d.kind, unitsPerEquipmentHour: d.kind ? d.equipment.trim() || null : null };
    try {
      await api<ResPlanRate>('/saveResPlanRate', { body, quiet: true });
      setOutcome({ type: 'success', text: t('resplan.msg.rateSaved', { activity: t(`resplan.activity.${activity}`) }) });
      await load([activity]);
    } catch (error) {
      setOutcome({ type: 'error', text: messageOf(error) });
    }
  };

  const remove = async (rate: ResPlanRate) => {
    const label = t(`resplan.activity.${rate.activity}`);
    const ok = await showConfirm({ id: 'resplan-rate-delete-confirm', content: t('resplan.msg.deleteRateAsk', { activity: label }), okText: t('resplan.action.delete'), cancelText: t('resplan.action.cancel'), okType: 'danger' });
    if (!ok) return;
    try {
      await api('/deleteResPlanRate', { body: { id: rate.id }, quiet: true });
      setOutcome({ type: 'success', text: t('resplan.msg.rateDeleted', { activity: label }) });
      await load([rate.activity]);
    } catch (error) {
      setOutcome({ type: 'error', text: messageOf(error) });
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle" data-testid="resplan-rates" data-loaded={loaded}>
      <OutcomeLine outcome={outcome} testId="resplan-rate-outcome" />
      <CompactTable
        rowKey="activity"
        dataSource={RESPLAN_ACTIVITIES.map((activity) => ({ activity }))}
        onRow={({ activity }) => ({ 'data-activity': activity }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('resplan.field.activity'), render: (_, { activity }) => t(`resplan.activity.${activity}`) },
          {
            title: t('resplan.field.unitsPerLabourHour'),
            render: (_, { activity }) => (
              <Space>
                <Input id={`resplan-rate-${activity}-labour`} type="number" min={0} style={{ width: 110 }} disabled={!rights.edit} value={drafts[activity]?.labour ?? ''} onChange={(e) => change(activity, { labour: e.target.value })} />
                {t(`resplan.unit.${RESPLAN_UNITS[activity]}`)}
              </Space>
            ),
          },
          {
            title: t('resplan.field.equipmentKind'),
            render: (_, { activity }) => (
              <Select
                data-testid={`resplan-rate-${activity}-kind`}
                allowClear
                style={{ width: 160 }}
                disabled={!rights.edit}
                placeholder={t('resplan.msg.noEquipment')}
                value={drafts[activity]?.kind ?? undefined}
                onChange={(kind?: ResPlanEquipmentKind) => change(activity, { kind: kind ?? null })}
                options={RESPLAN_EQUIPMENT_KINDS.map((k) => ({ value: k, label: t(`resplan.equipment.${k}`) }))}
              />
            ),
          },
          {
            title: t('resplan.field.unitsPerEquipmentHour'),
            render: (_, { activity }) => (
              <Input
                id={`resplan-rate-${activity}-equipment`}
                type="number"
                min={0}
                style={{ width: 110 }}
                disabled={!rights.edit || !drafts[activity]?.kind}
                value={drafts[activity]?.equipment ?? ''}
                onChange={(e) => change(activity, { equipment: e.target.value })}
              />
            ),
          },
          {
            title: '',
            render: (_, { activity }) => {
              const rate = rates.find((r) => r.activity === activity);
              return (
                <Space>
                  {rights.edit && (
                    <Button size="small" type="primary" data-testid={`resplan-rate-${activity}-save`} onClick={() => void save(activity)}>
                      {t('resplan.action.save')}
                    </Button>
                  )}
                  {rights.delete && rate && (
                    <Button size="small" danger data-testid={`resplan-rate-${activity}-delete`} onClick={() => void remove(rate)}>
                      {t('resplan.action.delete')}
                    </Button>
                  )}
                  {!rate && <Tag>{t('resplan.msg.noRate')}</Tag>}
                </Space>
              );
            },
          },
        ]}
      />
    </Space>
  );
}
