import { useState, type ReactNode } from 'react';
import { Button, Checkbox, Popover, Progress, Space, Tooltip, Typography } from 'antd';
import type { BehaviourDefinition, PageDefinition, RuleGroup, Sort } from '../schema/index.js';
import type { DeletionResponse, GenericRow } from '../schema/api.js';
import { confirmDeletion, useEngineServices } from './services.js';
import { AttachmentsDialog } from './AttachmentsDialog.js';
import type { GridColumn } from './DataGrid.js';
import { isBehaviourEnabled } from './model/isBehaviourEnabled.js';
import type { PageRights } from './model/pageRights.js';
import type { PageTotal } from './usePageRows.js';

export interface PageToolbarProps {
  page: PageDefinition;
  rights: PageRights;
  label: (code: string) => string;
  selected: GenericRow[];
  total: PageTotal | null;
  /** The list's columns: the chooser shows them, the export writes the visible ones. */
  columns: GridColumn[];
  onHiddenChange: (hidden: string[]) => void;
  /** What the list is filtered and sorted by, for the export. */
  conditions: RuleGroup | undefined;
  currentSort: () => Sort[];
  /** The behaviours the caller may run, in order. */
  behaviours: BehaviourDefinition[];
  onRunBehaviour: (behaviour: BehaviourDefinition) => Promise<void>;
  onAdd: () => void;
  onEdit: (row: GenericRow) => void;
  onImport: () => void;
  /** After a deletion was tried: the list reloads whether or not it went through. */
  onDeleted: () => void;
  /** The host's own actions for this page (EngineServices.toolbarActions), after the behaviours. */
  hostActions?: ReactNode;
}

/**
 * The buttons above a page's list: add, edit, delete, the behaviours, export,
 * import and the column chooser, with the export progress and the total. Each button shows only
 * with its right; the server checks the right again.
 */
export function PageToolbar(props: PageToolbarProps) {
  const services = useEngineServices();
  const { page, rights, label, selected, total, columns } = props;
  const [exportProgress, setExportProgress] = useState<number | null | undefined>(undefined);
  const [attachmentsOf, setAttachmentsOf] = useState<GenericRow | null>(null);
  const header = selected.length === 1 ? selected[0] : undefined;

  const deleteSelected = async () => {
    const ok = await confirmDeletion(services, services.t('ui.engine.confirmDelete', { count: selected.length }));
    if (!ok) return;
    try {
      const answer = await services.call<DeletionResponse>('/generic/deletion', {
        moduleCode: page.moduleCode,
        functionCode: page.functionCode,
        rows: selected.map((row) => ({ key: row._key, version: row._version })),
      });
      await services.message({ type: 'success', content: services.t('ui.engine.deleted', { count: answer.deleted }) });
    } catch {
      // Shown by the host (a stale row, a refused right); nothing was deleted.
    }
    props.onDeleted();
  };

  const exportRows = async () => {
    setExportProgress(null);
    const sort = props.currentSort();
    try {
      await services.download(
        '/generic/export',
        {
          moduleCode: page.moduleCode,
          functionCode: page.functionCode,
          ...(props.conditions ? { conditions: props.conditions } : {}),
          ...(sort.length > 0 ? { sort } : {}),
          fields: columns.filter((column) => !column.hidden).map((column) => column.field.name),
        },
        (fraction) => setExportProgress(fraction),
      );
    } catch {
      // Shown by the host.
    } finally {
      setExportProgress(undefined);
    }
  };

  /** Large exports: written by the server in the background into the download center. */
  const exportInBackground = async () => {
    const sort = props.currentSort();
    try {
      await services.call('/download/export', {
        moduleCode: page.moduleCode,
        functionCode: page.functionCode,
        ...(props.conditions ? { conditions: props.conditions } : {}),
        ...(sort.length > 0 ? { sort } : {}),
        fields: columns.filter((column) => !column.hidden).map((column) => column.field.name),
      });
      await services.message({ type: 'success', content: services.t('ui.download.started') });
    } catch {
      // Shown by the host.
    }
  };

  const names = columns.map((column) => column.field.name);
  const columnChooser = (
    <Checkbox.Group
      data-testid="engine-column-chooser"
      style={{ display: 'flex', flexDirection: 'column', maxHeight: 360, overflow: 'auto' }}
      value={columns.filter((column) => !column.hidden).map((column) => column.field.name)}
      options={columns.map((column) => ({ value: column.field.name, label: column.header }))}
      onChange={(visible) => props.onHiddenChange(names.filter((name) => !visible.includes(name)))}
    />
  );

  return (
    <Space wrap style={{ margin: '8px 0' }} data-testid="engine-toolbar">
      {rights.add && (
        <Button type="primary" data-testid="engine-add" onClick={props.onAdd}>
          {services.t('ui.engine.add')}
        </Button>
      )}
      {rights.edit && (
        <Button data-testid="engine-edit" disabled={selected.length !== 1} onClick={() => header && props.onEdit(header)}>
          {services.t('ui.engine.edit')}
        </Button>
      )}
      {rights.delete && (
        <Button danger data-testid="engine-delete" disabled={selected.length === 0} onClick={() => void deleteSelected()}>
          {services.t('ui.engine.delete')}
        </Button>
      )}
      {props.behaviours.map((behaviour) => (
        <Button
          key={behaviour.code}
          data-testid={`engine-behaviour-${behaviour.code}`}
          disabled={!isBehaviourEnabled(behaviour, selected)}
          onClick={() => void props.onRunBehaviour(behaviour)}
        >
          {label(behaviour.labelCode)}
        </Button>
      ))}
      {props.hostActions}
      <Button data-testid="engine-export" loading={exportProgress !== undefined} onClick={() => void exportRows()}>
        {services.t('ui.engine.export')}
      </Button>
      <Button data-testid="engine-export-background" onClick={() => void exportInBackground()}>
        {services.t('ui.download.exportBackground')}
      </Button>
      {page.attachments === true && (
        <Button data-testid="engine-attachments" disabled={selected.length !== 1} onClick={() => header && setAttachmentsOf(header)}>
          {services.t('ui.attachment.button')}
        </Button>
      )}
      {rights.add && !page.readOnly && (
        <Button data-testid="engine-import" onClick={props.onImport}>
          {services.t('ui.engine.import')}
        </Button>
      )}
      <Popover trigger="click" content={columnChooser} title={services.t('ui.engine.columns')} placement="bottomLeft">
        <Button data-testid="engine-columns">{services.t('ui.engine.columns')}</Button>
      </Popover>
      {exportProgress !== undefined && (
        <Tooltip title={services.t('ui.engine.exporting')}>
          <Progress
            data-testid="engine-export-progress"
            type="circle"
            size={24}
            percent={exportProgress === null ? 50 : Math.round(exportProgress * 100)}
            status="active"
          />
        </Tooltip>
      )}
      <Typography.Text type="secondary" data-testid="engine-total">
        {total === null ? '' : services.t(total.estimated ? 'ui.engine.totalAbout' : 'ui.engine.total', { count: total.count })}
        {selected.length > 0 ? ` · ${services.t('ui.engine.selected', { count: selected.length })}` : ''}
      </Typography.Text>
      {attachmentsOf && (
        <AttachmentsDialog page={page} recordKey={attachmentsOf._key} canEdit={rights.edit} onClose={() => setAttachmentsOf(null)} />
      )}
    </Space>
  );
}
