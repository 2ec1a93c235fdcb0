import { Input, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PageDefinition } from '../../../../engine/schema/index.js';

export const TEXT_LANGUAGES = ['en', 'zh', 'zh_tw', 'kor', 'th', 'jp'] as const;
type Language = (typeof TEXT_LANGUAGES)[number];
type Texts = NonNullable<PageDefinition['texts']>;

/** Every label code the page uses, with where it is used (titles, fields, behaviours, ...). */
export function labelCodesOf(page: Partial<PageDefinition>): string[] {
  const codes = new Set<string>();
  const add = (code: unknown) => typeof code === 'string' && code && codes.add(code);
  add(page.titleCode);
  page.fields?.forEach((f) => {
    add(f.labelCode);
    add(f.group);
    if (f.options?.type === 'static') f.options.items.forEach((i) => add(i.labelCode));
    add(f.validationSql?.messageCode);
  });
  page.behaviours?.forEach((b) => (add(b.labelCode), add(b.confirmTextCode)));
  page.subPages?.forEach((s) => add(s.titleCode));
  page.queryConditions?.forEach((q) => add(q.titleCode));
  page.fieldMaps?.forEach((m) => add(m.titleCode));
  Object.keys(page.texts ?? {}).forEach(add);
  return [...codes].sort();
}

/**
 * The texts of every label in six languages. A label is a locale key of the app
 * (translated by the locale files) or a text code of the page; a text code needs its texts here,
 * and a missing language is flagged.
 */
export function TextsPanel({ page, onChange, hasLocaleKey }: { page: Partial<PageDefinition>; onChange: (texts: Texts) => void; hasLocaleKey: (code: string) => boolean }) {
  const { t } = useTranslation();
  const texts: Texts = page.texts ?? {};
  const rows = labelCodesOf(page).map((code) => ({ code, locale: hasLocaleKey(code) }));
  const setText = (code: string, language: Language, value: string) => {
    const entry = { ...(texts[code] ?? { en: '' }) } as Record<string, string>;
    if (value === '' && language !== 'en') delete entry[language];
    else entry[language] = value;
    onChange({ ...texts, [code]: entry as Texts[string] });
  };
  return (
    <Table
      size="small"
      rowKey="code"
      pagination={false}
      dataSource={rows}
      data-testid="designer-texts"
      scroll={{ x: true }}
      columns={[
        {
          title: t('ui.designer.texts.code'),
          dataIndex: 'code',
          render: (code: string, row) => (
            <span>
              {code} {row.locale && !texts[code] ? <Tag color="blue">{t('ui.designer.texts.localeKey')}</Tag> : null}
            </span>
          ),
        },
        ...TEXT_LANGUAGES.map((language) => ({
          title: language,
          key: language,
          render: (_: unknown, row: { code: string; locale: boolean }) => {
            const value = (texts[row.code] as Record<string, string> | undefined)?.[language] ?? '';
            const missing = !row.locale && value === '';
            return (
              <Input
                size="small"
                data-testid={`designer-text-${row.code}-${language}`}
                status={missing ? 'warning' : undefined}
                placeholder={missing ? t('ui.designer.texts.missing') : undefined}
                value={value}
                onChange={(e) => setText(row.code, language, e.target.value)}
              />
            );
          },
        })),
      ]}
    />
  );
}
