import { Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ScopeSwitchRequest, UserStatus } from '../../common/api-types';
import { api } from '../api/client';
import { useSession } from '../store/session-store';

/** Where each picker saves the session's choice. */
const SWITCH_PATHS = { project: '/user/project', warehouse: '/user/whs' } as const;

/**
 * One picker of the switcher, the session's project or warehouse: the choices by code and name, or
 * by code alone when compact; a choice is saved on the server, then `onChanged` runs.
 */
function ScopeSelect({ kind, status, compact, onChanged }: { kind: 'project' | 'warehouse'; status: UserStatus; compact: boolean; onChanged: () => void }) {
  const { t } = useTranslation();
  const label = t(`ui.shell.${kind}`);
  const choices = kind === 'project' ? status.projects : status.warehouses;
  const choose = (id: number) => {
    const body: ScopeSwitchRequest = { id };
    api(SWITCH_PATHS[kind], { method: 'POST', body })
      .then(onChanged)
      .catch(() => undefined);
  };
  return (
    <Select
      data-testid={`${kind}-switcher`}
      aria-label={label}
      placeholder={label}
      size="small"
      style={compact ? { width: 84 } : { minWidth: 160 }}
      popupMatchSelectWidth={!compact}
      optionLabelProp={compact ? 'code' : 'label'}
      value={status[kind]?.id}
      options={choices.map((c) => ({ value: c.id, label: `${c.code} ${c.name}`, code: c.code }))}
      onChange={choose}
    />
  );
}

/**
 * Project and warehouse switcher: the session's scope, saved on the server.
 * `compact` (a phone or handheld) shows codes only, so the header keeps to one row and the scan
 * screens below it keep the height they need; the open list still names each one in full.
 */
export function ScopeSwitcher({ onChanged, compact = false }: { onChanged: () => void; compact?: boolean }) {
  const status = useSession((s) => s.status);
  if (!status) return null;
  return (
    <Space size={compact ? 4 : 'small'} wrap={!compact}>
      <ScopeSelect kind="project" status={status} compact={compact} onChanged={onChanged} />
      <ScopeSelect kind="warehouse" status={status} compact={compact} onChanged={onChanged} />
    </Space>
  );
}
