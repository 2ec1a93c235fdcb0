import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Input, Typography } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import { api } from '../api/client';
import { formatDateTime } from '../locale';
import { useSession } from '../store/session-store';
import { toLanguage } from '../../common/languages';

type Preview = { valid: true; nextRuns: string[] } | { valid: false; reason: string };

/** Wait this long after the last key before asking the server, so typing stays smooth. */
const DEBOUNCE_MS = 250;

/**
 * The cron expression editor ("a cron-style expression editor"): the Quartz-style
 * expression of a job or timer, with the next five run times shown while typing, as the server
 * computes them (the same croner rules the scheduler runs by), or why the expression is not valid.
 * Used by the engine's forms for every field whose format is `cron`.
 */
export function CronExpressionWidget(props: WidgetProps) {
  const { t, i18n } = useTranslation();
  const timeZone = useSession((state) => state.status?.user.timeZone) ?? 'UTC';
  const value = typeof props.value === 'string' ? props.value : '';
  const [preview, setPreview] = useState<Preview | undefined>(undefined);
  const [checking, setChecking] = useState(false);

  useEffect(() => {
    if (value.trim() === '') {
      setPreview(undefined);
      return;
    }
    let current = true;
    setChecking(true);
    const timer = setTimeout(() => {
      api<Preview>('/job/cron', { method: 'POST', body: { expression: value }, quiet: true })
        .then((answer) => current && setPreview(answer))
        .catch(() => current && setPreview(undefined))
        .finally(() => current && setChecking(false));
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [value]);

  const language = toLanguage(i18n.language) ?? 'en';
  return (
    <div data-testid="cron-editor">
      <Input
        id={props.id}
        value={value}
        disabled={props.disabled}
        readOnly={props.readonly}
        placeholder="0 0 3 ? * MON-FRI"
        spellCheck={false}
        style={{ fontFamily: 'monospace' }}
        onChange={(event) => props.onChange(event.target.value === '' ? undefined : event.target.value)}
        onBlur={() => props.onBlur(props.id, value)}
        onFocus={() => props.onFocus(props.id, value)}
      />
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, marginTop: 4 }}>
        {t('job.cron.help')}
      </Typography.Text>
      {checking && !preview ? <Typography.Text type="secondary">{t('job.cron.checking')}</Typography.Text> : null}
      {preview?.valid === true ? (
        <div data-testid="cron-next-runs" style={{ marginTop: 4 }}>
          <Typography.Text strong>{t('job.cron.nextRuns')}</Typography.Text>
          <ol style={{ margin: '4px 0 0', paddingLeft: 20 }}>
            {preview.nextRuns.map((time) => (
              <li key={time} data-time={time}>
                {formatDateTime(time, language, timeZone)}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      {preview?.valid === false ? (
        <Typography.Text type="danger" data-testid="cron-invalid" style={{ display: 'block', marginTop: 4 }}>
          {t('job.cron.invalid', { reason: preview.reason })}
        </Typography.Text>
      ) : null}
    </div>
  );
}
