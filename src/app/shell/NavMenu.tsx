import { Menu, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { MenuItem } from '../../common/api-types';
import { useSession } from '../store/session-store';

type AntItem = Required<MenuProps>['items'][number];

function toAntItems(items: MenuItem[], t: (key: string) => string): AntItem[] {
  return items.map((item) =>
    item.children?.length
      ? { key: `group:${item.code}`, label: t(item.titleKey), children: toAntItems(item.children, t) }
      : { key: item.route ?? `item:${item.code}`, label: t(item.titleKey), disabled: !item.route },
  );
}

function routeOf(item: MenuItem, route: string): MenuItem[] | undefined {
  if (item.route === route) return [item];
  for (const child of item.children ?? []) {
    const path = routeOf(child, route);
    if (path) return [item, ...path];
  }
  return undefined;
}

/** The user's menu (from `GET /api/user/menu`) on the left or on top; an entry opens its tab. */
export function NavMenu({ mode }: { mode: 'left' | 'top' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const menu = useSession((s) => s.menu);
  const activeTab = useSession((s) => s.activeTab);
  const selected = activeTab ? `/${activeTab}` : '';
  const openPath = menu.map((item) => routeOf(item, selected)).find(Boolean) ?? [];
  const items = toAntItems(menu, t);
  if (!items.length) items.push({ key: 'empty', label: t('ui.shell.menuEmpty'), disabled: true });
  return (
    <Menu
      data-testid={`nav-${mode}`}
      mode={mode === 'left' ? 'inline' : 'horizontal'}
      theme="dark"
      items={items}
      selectedKeys={[selected]}
      defaultOpenKeys={mode === 'left' ? openPath.slice(0, -1).map((i) => `group:${i.code}`) : undefined}
      style={mode === 'top' ? { flex: 1, minWidth: 0 } : { borderInlineEnd: 0 }}
      onClick={({ key }) => {
        if (key.startsWith('/')) void navigate(`/page${key}`);
      }}
    />
  );
}
