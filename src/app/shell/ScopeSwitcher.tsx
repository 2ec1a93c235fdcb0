import { Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ScopeSwitchRequest } from '../../common/api-types';
import { api } from '../api/client';
import { useSession } from '../store/session-store';

/**
 * Project and warehouse switcher (issue 4, item 2): the session's scope, saved on the server.
 * `compact` (a phone or handheld) shows codes only, so the header keeps to one row and the scan
 * screens below it keep the height they need; the open list still names each one in full.
 */
export function ScopeSwitcher({ onChanged, compact = false }: { onChanged: () => void; compact?: boolean }) {
  const { t } = useTranslation();
  const status = useSession((s) => s.status);
  if (!status) return null;
  const choose = (path: '/user/project' | '/user/whs', body: ScopeSwitchRequest) => {
    api(path, { method: 'POST', body })
      .then(onChanged)
      .catch(() => undefined);
  };
  return (
    <Space size={compact ? 4 : 'small'} wrap={!compact}>
      <Select
        data-testid="project-switcher"
        aria-label={t('ui.shell.project')}
        placeholder={t('ui.shell.project')}
        size="small"
        style={compact ? { width: 84 } : { minWidth: 160 }}
        popupMatchSelectWidth={!compact}
        optionLabelProp={compact ? 'code' : 'label'}
        value={status.project?.id}
        options={status.projects.map((p) => ({ value: p.id, label: `${p.code} ${p.name}`, code: p.code }))}
        onChange={(id: number) => choose('/user/project', { id })}
      />
      <Select
        data-testid="warehouse-switcher"
        aria-label={t('ui.shell.warehouse')}
        placeholder={t('ui.shell.warehouse')}
        size="small"
        style={compact ? { width: 84 } : { minWidth: 160 }}
        popupMatchSelectWidth={!compact}
        optionLabelProp={compact ? 'code' : 'label'}
        value={status.warehouse?.id}
        options={status.warehouses.map((w) => ({ value: w.id, label: `${w.code} ${w.name}`, code: w.code }))}
        onChange={(id: number) => choose('/user/whs', { id })}
      />
    </Space>
  );
}
