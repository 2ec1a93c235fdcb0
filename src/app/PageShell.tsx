import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** The signed-in frame; its layout, menu and tabs grow here. */
export default function PageShell() {
  const { t } = useTranslation();
  return <Result status="info" title={t('ui.appName')} />;
}
