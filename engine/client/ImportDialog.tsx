import { useEffect, useState } from 'react';
import { Alert, Modal, Progress, Select, Space } from 'antd';
import type { PageDefinition } from '../schema/index.js';
import type { ImportResponse } from '../schema/api.js';
import { useEngineServices, type EngineFieldError } from './services.js';

export interface ImportDialogProps {
  page: PageDefinition;
  label: (code: string) => string;
  onClose: () => void;
  onImported: (count: number) => void;
}

interface ImportTemplateChoice {
  id: number;
  code: string;
  name: string;
  fileType: string;
}

/**
 * Import of a file, uploaded as multipart, through one of the page's field maps or one of the
 * project's import templates for the page (xlsx, delimited or fixed-width text). The server adds
 * every row or none; when it refuses, each row's problems are listed here so the user can fix the
 * file and try again.
 */
export function ImportDialog(props: ImportDialogProps) {
  const services = useEngineServices();
  const maps = props.page.fieldMaps ?? [];
  const [templates, setTemplates] = useState<ImportTemplateChoice[] | undefined>(undefined);
  // `map:<code>` or `template:<id>`.
  const [format, setFormat] = useState<string | undefined>(maps[0] ? `map:${maps[0].code}` : undefined);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null | undefined>(undefined);
  const [problems, setProblems] = useState<{ message: string; details: EngineFieldError[] } | null>(null);

  useEffect(() => {
    let live = true;
    services
      .call<{ templates: ImportTemplateChoice[] }>('/importConfig/forPage', undefined, {
        query: { moduleCode: props.page.moduleCode, functionCode: props.page.functionCode },
        quiet: true,
      })
      .then((answer) => {
        if (!live) return;
        setTemplates(answer.templates);
        setFormat((current) => current ?? (answer.templates[0] ? `template:${answer.templates[0].id}` : undefined));
      })
      .catch(() => live && setTemplates([]));
    return () => {
      live = false;
    };
  }, [services, props.page.moduleCode, props.page.functionCode]);

  const choices = [
    ...maps.map((map) => ({ value: `map:${map.code}`, label: props.label(map.titleCode) })),
    ...(templates ?? []).map((template) => ({ value: `template:${template.id}`, label: `${services.t('imp.ui.template')}: ${template.name} (${template.fileType})` })),
  ];

  const run = async () => {
    if (!file || !format) return;
    const form = new FormData();
    const [kind, value] = [format.slice(0, format.indexOf(':')), format.slice(format.indexOf(':') + 1)];
    if (kind === 'template') form.append('templateId', value);
    else {
      form.append('moduleCode', props.page.moduleCode);
      form.append('functionCode', props.page.functionCode);
      form.append('fieldMap', value);
    }
    form.append('file', file, file.name);
    setProblems(null);
    setProgress(0);
    try {
      const path = kind === 'template' ? '/importConfig/import' : '/generic/import';
      const answer = await services.upload<ImportResponse>(path, form, (fraction) => setProgress(fraction));
      props.onImported(answer.inserted);
    } catch (error) {
      const refusal = services.callError(error);
      if (!refusal) throw error;
      setProblems({ message: refusal.message, details: refusal.details ?? [] });
    } finally {
      setProgress(undefined);
    }
  };

  return (
    <Modal
      open
      title={services.t('ui.engine.importTitle')}
      okText={services.t('ui.engine.importRun')}
      cancelText={services.t('ui.engine.cancel')}
      okButtonProps={{ disabled: !file || !format, id: 'engine-import-run' }}
      confirmLoading={progress !== undefined}
      maskClosable={false}
      onOk={() => void run()}
      onCancel={props.onClose}
    >
      <Space direction="vertical" style={{ width: '100%' }} data-testid="engine-import">
        {choices.length > 1 && (
          <Select
            value={format}
            onChange={setFormat}
            style={{ width: '100%' }}
            data-testid="engine-import-format"
            options={choices}
            aria-label={services.t('ui.engine.importMap')}
          />
        )}
        {templates !== undefined && choices.length === 0 && <Alert type="info" showIcon message={services.t('imp.ui.noFormat')} data-testid="engine-import-none" />}
        <input
          type="file"
          accept={format?.startsWith('template:') ? '.xlsx,.csv,.txt,.dat,.prn' : '.xlsx,.csv'}
          aria-label={services.t('ui.engine.importFile')}
          data-testid="engine-import-file"
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
        />
        {progress !== undefined && (
          <Progress percent={progress === null ? 100 : Math.round(progress * 100)} status="active" showInfo={progress !== null} />
        )}
        {problems && (
          <Alert
            type="error"
            showIcon
            message={problems.message}
            data-testid="engine-import-problems"
            description={
              problems.details.length > 0 ? (
                <ul style={{ maxHeight: 200, overflow: 'auto', margin: 0, paddingLeft: 16 }}>
                  {problems.details.slice(0, 200).map((detail, index) => (
                    <li key={index}>
                      {detail.field}: {detail.message ?? detail.code}
                    </li>
                  ))}
                </ul>
              ) : undefined
            }
          />
        )}
      </Space>
    </Modal>
  );
}
