import { useState } from 'react';
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

/**
 * Import of an xlsx or csv file through one of the page's field maps (spec section 3 "field
 * maps"; section 7 multipart upload). The server adds every row or none; when it refuses, each
 * row's problems are listed here so the user can fix the file and try again.
 */
export function ImportDialog(props: ImportDialogProps) {
  const services = useEngineServices();
  const maps = props.page.fieldMaps ?? [];
  const [fieldMap, setFieldMap] = useState<string | undefined>(maps[0]?.code);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null | undefined>(undefined);
  const [problems, setProblems] = useState<{ message: string; details: EngineFieldError[] } | null>(null);

  const run = async () => {
    if (!file || !fieldMap) return;
    const form = new FormData();
    form.append('moduleCode', props.page.moduleCode);
    form.append('functionCode', props.page.functionCode);
    form.append('fieldMap', fieldMap);
    form.append('file', file, file.name);
    setProblems(null);
    setProgress(0);
    try {
      const answer = await services.upload<ImportResponse>('/generic/import', form, (fraction) => setProgress(fraction));
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
      okButtonProps={{ disabled: !file || !fieldMap, id: 'engine-import-run' }}
      confirmLoading={progress !== undefined}
      maskClosable={false}
      onOk={() => void run()}
      onCancel={props.onClose}
    >
      <Space direction="vertical" style={{ width: '100%' }} data-testid="engine-import">
        {maps.length > 1 && (
          <Select
            value={fieldMap}
            onChange={setFieldMap}
            style={{ width: '100%' }}
            options={maps.map((map) => ({ value: map.code, label: props.label(map.titleCode) }))}
            aria-label={services.t('ui.engine.importMap')}
          />
        )}
        <input
          type="file"
          accept=".xlsx,.csv"
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
