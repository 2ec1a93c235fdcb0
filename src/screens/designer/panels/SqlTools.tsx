import { useState } from 'react';
import { Alert, Button, Input, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { sqlParameters } from '../../../common/designer/sql-text';
import { designerApi, type SqlTestResult } from '../api';
import { SqlEditor } from '../monaco/lazy';

/** Parameters the engine fills from the session (engine/schema README). */
const RESERVED = new Set(['projectId', 'projectCode', 'warehouseId', 'warehouseCode', 'organizationId', 'userId', 'userLogin', 'language', 'keys', 'value']);

/**
 * One named SQL: monaco with SQL highlighting, its `:parameters` listed, and a test run that shows
 * the first rows or the database's error.
 */
export function SqlTools({ named, onText }: { named: { name?: unknown; text?: unknown; mode?: unknown }; onText: (text: string) => void }) {
  const { t } = useTranslation();
  const text = typeof named.text === 'string' ? named.text : '';
  const params = sqlParameters(text);
  const [inputs, setInputs] = useState<Record<string, string>>({});
  const [result, setResult] = useState<SqlTestResult | null>(null);
  const [running, setRunning] = useState(false);
  const run = async () => {
    setRunning(true);
    try {
      const given: Record<string, string | null> = {};
      for (const p of params) if (!RESERVED.has(p)) given[p] = inputs[p] ?? null;
      setResult(
        await designerApi.testSql({ name: typeof named.name === 'string' ? named.name : 'sql', text, mode: named.mode === 'write' ? 'write' : 'read', inputs: given }),
      );
    } finally {
      setRunning(false);
    }
  };
  return (
    <div style={{ marginTop: 8 }}>
      <Typography.Text strong>{t('ui.designer.sql.text')}</Typography.Text>
      <SqlEditor value={text} onChange={onText} />
      <div style={{ margin: '8px 0' }} data-testid="designer-sql-params">
        <Typography.Text>{t('ui.designer.sql.parameters')}: </Typography.Text>
        {params.length === 0 && <Typography.Text type="secondary">{t('ui.designer.sql.noParameters')}</Typography.Text>}
        {params.map((p) => (
          <Tag key={p} color={RESERVED.has(p) ? 'blue' : 'default'}>
            :{p}
          </Tag>
        ))}
      </div>
      <Space wrap>
        {params
          .filter((p) => !RESERVED.has(p))
          .map((p) => (
            <Input key={p} size="small" addonBefore={`:${p}`} value={inputs[p] ?? ''} onChange={(e) => setInputs({ ...inputs, [p]: e.target.value })} />
          ))}
        <Button data-testid="designer-sql-test" loading={running} disabled={!text.trim()} onClick={() => void run()}>
          {t('ui.designer.sql.testRun')}
        </Button>
      </Space>
      {result && !result.ok && (
        <Alert style={{ marginTop: 8 }} type="error" showIcon data-testid="designer-sql-error" message={t('ui.designer.sql.failed')} description={result.error} />
      )}
      {result?.ok && (
        <Table
          style={{ marginTop: 8 }}
          size="small"
          data-testid="designer-sql-rows"
          pagination={false}
          rowKey={(_, i) => String(i)}
          dataSource={result.rows}
          locale={{ emptyText: t('ui.designer.sql.noRows') }}
          columns={result.columns.map((c) => ({ title: c, dataIndex: c, render: (v: unknown) => (v === null ? '∅' : typeof v === 'string' ? v : JSON.stringify(v)) }))}
        />
      )}
    </div>
  );
}
