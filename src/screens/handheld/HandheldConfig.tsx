import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Input, Select, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, showConfirm, showSuccess, useRights } from '../../app/public';
import {
  DIALOG_FIELDS,
  HANDHELD_ACTIONS,
  HANDHELD_FUNCTIONS,
  LOCATION_RULES,
  type HandheldConfigDetail,
  type HandheldConfigRow,
  type HandheldDefinition,
  type HandheldFunction,
  type ScanStep,
} from '../../common/handheld-api';
import { messageOf } from '../inbound/handheld';
import * as calls from './calls';

type Draft = Pick<HandheldConfigDetail, 'id' | 'name' | 'status' | 'fn'> & { draft: HandheldDefinition };

/** The field problems of a refused publish, each with the field named. */
function problemsOf(error: unknown): string[] {
  if (error instanceof ApiError && error.body.details?.length) return error.body.details.map((d) => `${d.field}: ${d.message ?? d.code}`);
  return [messageOf(error)];
}

/**
 * /handheldConfig: the configurations of the handheld flows of the project and warehouse (docs/handheld.md,
 * "Configured flows"). A configuration names its function, its order search and scanning steps (scan
 * name, prompt, action, target field) in order, the dialogs it asks and the location logic. Saving
 * keeps a draft; publishing makes it the next version the runtime (/rfFlow) runs, or names the fields
 * that are wrong; a configuration may be copied to another project.
 */
export default function HandheldConfig() {
  const { t } = useTranslation();
  const [rows, setRows] = useState<HandheldConfigRow[]>([]);
  const [detail, setDetail] = useState<HandheldConfigDetail | null>(null);
  const [edit, setEdit] = useState<Draft | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [creating, setCreating] = useState({ code: '', name: '', fn: 'putaway' as HandheldFunction });
  const [projects, setProjects] = useState<Array<{ id: number; code: string; name: string }>>([]);
  const [copyTo, setCopyTo] = useState<number | undefined>();
  // What the server would refuse is not offered: a refused call signs the user out of this client.
  const rights = useRights('handheld.handheldConfig');

  const load = useCallback(async () => {
    try {
      setRows(await calls.listConfigs());
    } catch (error) {
      setProblems(problemsOf(error));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (rights.add) void calls.copyProjects().then(setProjects, () => undefined);
  }, [rights.add]);

  const open = async (id: number) => {
    try {
      const found = await calls.getConfig(id);
      setDetail(found);
      setEdit({ id: found.id, name: found.name, status: found.status, fn: found.fn, draft: found.draft });
      setProblems([]);
    } catch (error) {
      setProblems(problemsOf(error));
    }
  };

  const act = async (work: () => Promise<void>) => {
    try {
      await work();
      setProblems([]);
    } catch (error) {
      setProblems(problemsOf(error));
    }
  };

  const create = () =>
    act(async () => {
      const made = await calls.createConfig({ code: creating.code.trim(), name: creating.name.trim(), fn: creating.fn });
      setCreating({ code: '', name: '', fn: creating.fn });
      await load();
      await open(made.id);
    });

  const save = async (draft: Draft) => {
    const saved = await calls.saveConfig({ id: draft.id, name: draft.name, status: draft.status, draft: draft.draft });
    setDetail(saved);
    return saved;
  };

  const setDef = (change: (d: HandheldDefinition) => HandheldDefinition) => setEdit((e) => (e ? { ...e, draft: change(structuredClone(e.draft)) } : e));
  const setStep = (index: number, patch: Partial<ScanStep>) => setDef((d) => ({ ...d, steps: d.steps.map((s, i) => (i === index ? { ...s, ...patch } : s)) }));
  const move = (index: number, by: -1 | 1) =>
    setDef((d) => {
      const steps = [...d.steps];
      const [step] = steps.splice(index, 1);
      steps.splice(index + by, 0, step);
      return { ...d, steps };
    });
  const remove = async (index: number) => {
    if (!edit) return;
    const ok = await showConfirm({ id: 'hh-step-remove-confirm', content: t('hh.config.removeAsk', { name: edit.draft.steps[index].scanName || index + 1 }), okText: t('hh.config.remove'), okType: 'danger' });
    if (ok) setDef((d) => ({ ...d, steps: d.steps.filter((_, i) => i !== index) }));
  };

  const actionsOf = (fn: HandheldFunction, kind: 'search' | 'step') => HANDHELD_ACTIONS.filter((a) => a.fn === fn && a.kind === kind).map((a) => ({ value: a.name, label: a.name }));
  const targetsOf = (action: string) => (HANDHELD_ACTIONS.find((a) => a.name === action)?.targets ?? []).map((v) => ({ value: v, label: v }));

  const stepRow = (step: ScanStep, at: string, kind: 'search' | 'step', change: (patch: Partial<ScanStep>) => void) => (
    <Space wrap data-testid={`hh-${at}`}>
      <Input data-testid={`hh-${at}-scanName`} style={{ width: 120 }} placeholder={t('hh.config.scanName')} value={step.scanName} onChange={(e) => change({ scanName: e.target.value })} />
      <Input data-testid={`hh-${at}-prompt`} style={{ width: 240 }} placeholder={t(`hh.action.${step.action}`, { qty: '' })} value={step.prompt} onChange={(e) => change({ prompt: e.target.value })} />
      <Select data-testid={`hh-${at}-action`} style={{ width: 200 }} value={step.action} options={actionsOf(edit!.fn, kind)} onChange={(action: string) => change({ action, targetField: targetsOf(action)[0]?.value ?? '' })} />
      <Select data-testid={`hh-${at}-target`} style={{ width: 140 }} value={step.targetField} options={targetsOf(step.action)} onChange={(targetField: string) => change({ targetField })} />
      {kind === 'step' && (
        <Checkbox checked={step.optional ?? false} onChange={(e) => change({ optional: e.target.checked })}>
          {t('hh.config.optional')}
        </Checkbox>
      )}
    </Space>
  );

  return (
    <div data-testid="hh-config" style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('hh.config.title')}
      </Typography.Title>
      {problems.length > 0 && <Alert data-testid="hh-problems" type="error" showIcon message={problems.map((p) => <div key={p}>{p}</div>)} />}
      <Table<HandheldConfigRow>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={rows}
        locale={{ emptyText: t('hh.config.none') }}
        onRow={(row) => ({ onClick: () => void open(row.id), style: { cursor: 'pointer' }, 'data-code': row.code }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { key: 'code', title: t('hh.config.code'), dataIndex: 'code' },
          { key: 'name', title: t('hh.config.name'), dataIndex: 'name' },
          { key: 'fn', title: t('hh.config.fn'), render: (_: unknown, row) => t(`hh.fn.${row.fn}`) },
          { key: 'status', title: t('hh.config.status'), render: (_: unknown, row) => t(`hh.status.${row.status}`) },
          { key: 'version', title: t('hh.config.version'), render: (_: unknown, row) => row.publishedVersion ?? t('hh.config.notPublished') },
        ]}
      />
      {rights.add && (
        <Space wrap>
          <Input data-testid="hh-new-code" style={{ width: 140 }} placeholder={t('hh.config.code')} value={creating.code} onChange={(e) => setCreating({ ...creating, code: e.target.value })} />
          <Input data-testid="hh-new-name" style={{ width: 200 }} placeholder={t('hh.config.name')} value={creating.name} onChange={(e) => setCreating({ ...creating, name: e.target.value })} />
          <Select<HandheldFunction> data-testid="hh-new-fn" style={{ width: 140 }} value={creating.fn} options={HANDHELD_FUNCTIONS.map((f) => ({ value: f, label: t(`hh.fn.${f}`) }))} onChange={(fn) => setCreating({ ...creating, fn })} />
          <Button data-testid="hh-new" disabled={!creating.code.trim() || !creating.name.trim()} onClick={() => void create()}>
            {t('hh.config.create')}
          </Button>
        </Space>
      )}
      {edit && detail && (
        <div data-testid="hh-editor" data-id={edit.id} style={{ display: 'flex', flexDirection: 'column', gap: 12, borderTop: '1px solid #eee', paddingTop: 12 }}>
          <Typography.Text strong>
            {detail.code} · {t(`hh.fn.${edit.fn}`)} · {detail.publishedVersion ? t('hh.config.publishedVersion', { version: detail.publishedVersion }) : t('hh.config.notPublished')}
          </Typography.Text>
          <Space wrap>
            <Input data-testid="hh-name" style={{ width: 240 }} value={edit.name} onChange={(e) => setEdit({ ...edit, name: e.target.value })} />
            <Select data-testid="hh-status" style={{ width: 140 }} value={edit.status} options={(['active', 'inactive'] as const).map((s) => ({ value: s, label: t(`hh.status.${s}`) }))} onChange={(status) => setEdit({ ...edit, status })} />
            <Checkbox checked={edit.draft.flow.restartAfterConfirm} onChange={(e) => setDef((d) => ({ ...d, flow: { restartAfterConfirm: e.target.checked } }))}>
              {t('hh.config.restartAfterConfirm')}
            </Checkbox>
          </Space>
          <Typography.Text strong>{t('hh.config.orderSearch')}</Typography.Text>
          {edit.draft.orderSearch ? stepRow(edit.draft.orderSearch, 'search', 'search', (patch) => setDef((d) => ({ ...d, orderSearch: { ...d.orderSearch!, ...patch } }))) : <span>—</span>}
          <Typography.Text strong>{t('hh.config.steps')}</Typography.Text>
          {edit.draft.steps.map((step, index) => (
            <Space key={index} wrap>
              {stepRow(step, `step-${index}`, 'step', (patch) => setStep(index, patch))}
              <Button data-testid={`hh-step-${index}-up`} disabled={index === 0} onClick={() => move(index, -1)}>
                ↑
              </Button>
              <Button data-testid={`hh-step-${index}-down`} disabled={index === edit.draft.steps.length - 1} onClick={() => move(index, 1)}>
                ↓
              </Button>
              <Button data-testid={`hh-step-${index}-remove`} danger onClick={() => void remove(index)}>
                {t('hh.config.remove')}
              </Button>
            </Space>
          ))}
          <div>
            <Button
              data-testid="hh-add-step"
              onClick={() => {
                const first = actionsOf(edit.fn, 'step')[0]?.value ?? '';
                setDef((d) => ({ ...d, steps: [...d.steps, { scanName: '', prompt: '', action: first, targetField: targetsOf(first)[0]?.value ?? '' }] }));
              }}
            >
              {t('hh.config.addStep')}
            </Button>
          </div>
          <Typography.Text strong>{t('hh.config.dialogs')}</Typography.Text>
          {DIALOG_FIELDS.map((d) => (
            <Space key={d}>
              <span style={{ width: 120, display: 'inline-block' }}>{t(`hh.dialog.${d}`)}</span>
              <Checkbox data-testid={`hh-dialog-${d}-show`} checked={edit.draft.dialogs[d].show} onChange={(e) => setDef((x) => ({ ...x, dialogs: { ...x.dialogs, [d]: { ...x.dialogs[d], show: e.target.checked } } }))}>
                {t('hh.config.show')}
              </Checkbox>
              <Checkbox
                data-testid={`hh-dialog-${d}-mandatory`}
                checked={edit.draft.dialogs[d].mandatory}
                onChange={(e) => setDef((x) => ({ ...x, dialogs: { ...x.dialogs, [d]: { ...x.dialogs[d], mandatory: e.target.checked } } }))}
              >
                {t('hh.config.mandatory')}
              </Checkbox>
            </Space>
          ))}
          <Typography.Text strong>{t('hh.config.locationLogic')}</Typography.Text>
          <Select
            data-testid="hh-location-logic"
            mode="multiple"
            style={{ maxWidth: 600 }}
            value={edit.draft.locationLogic}
            options={LOCATION_RULES.map((r) => ({ value: r, label: t(`hh.rule.${r}`) }))}
            onChange={(locationLogic) => setDef((d) => ({ ...d, locationLogic }))}
          />
          <Space wrap>
            {rights.edit && (
              <>
                <Button data-testid="hh-save" onClick={() => void act(async () => { await save(edit); await load(); void showSuccess({ type: 'success', content: t('hh.config.saved') }); })}>
                  {t('hh.config.save')}
                </Button>
                <Button
                  type="primary"
                  data-testid="hh-publish"
                  onClick={() =>
                    void act(async () => {
                      await save(edit);
                      const published = await calls.publishConfig(edit.id);
                      setDetail(published);
                      await load();
                      void showSuccess({ type: 'success', content: t('hh.config.published', { version: published.publishedVersion }) });
                    })
                  }
                >
                  {t('hh.config.publish')}
                </Button>
              </>
            )}
            {rights.add && (
              <>
                <Select data-testid="hh-copy-project" style={{ width: 180 }} placeholder={t('hh.config.copyTo')} value={copyTo} options={projects.map((p) => ({ value: p.id, label: `${p.code} ${p.name}` }))} onChange={setCopyTo} />
                <Button
                  data-testid="hh-copy"
                  disabled={copyTo === undefined}
                  onClick={() =>
                    void act(async () => {
                      const copied = await calls.copyConfig({ id: edit.id, projectId: copyTo! });
                      void showSuccess({ type: 'success', content: t('hh.config.copied', { code: copied.code, project: projects.find((p) => p.id === copied.projectId)?.code ?? '' }) });
                    })
                  }
                >
                  {t('hh.config.copy')}
                </Button>
              </>
            )}
          </Space>
        </div>
      )}
    </div>
  );
}
