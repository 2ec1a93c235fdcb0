import { Result } from 'antd';
import { ClockCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/**
 * A screen of the spec's route table whose issue has not landed yet: the user sees which screen
 * it is and that it is not there yet, never a blank page.
 */
export function NotAvailableScreen({ route, titleKey }: { route: string; titleKey?: string }) {
  const { t } = useTranslation();
  const path = route.startsWith('/') ? route : `/${route}`;
  const title = titleKey ? t(titleKey) : path;
  return (
    <div data-testid="not-available" data-route={path}>
      <Result
        icon={<ClockCircleOutlined />}
        title={t('ui.shell.notAvailable.title')}
        subTitle={t('ui.shell.notAvailable.text', { title, route: path })}
      />
    </div>
  );
}
