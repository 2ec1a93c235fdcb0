import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

export function NotFoundScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('ui.notFound.text')}
      extra={
        <Button type="primary" onClick={() => void navigate('/')}>
          {t('ui.notFound.back')}
        </Button>
      }
    />
  );
}
