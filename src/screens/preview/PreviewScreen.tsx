import { useEffect, useState } from 'react';
import { Result, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ApiError, fetchBlob } from '../../app/public';

type State =
  | { kind: 'loading' }
  | { kind: 'missing' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; url: string; contentType: string; fileName: string };

/**
 * The file and image preview (`/previewImgFile`, the one route a new start of the
 * app with a token does not send to /page): `?id=` names an attachment; images are shown as
 * images, PDFs in the browser's own viewer, both from the bytes the server checked the caller's
 * rights for. Nothing else is previewed.
 */
export default function PreviewScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const raw = params.get('id') ?? '';
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    if (id < 1) {
      setState({ kind: 'missing' });
      return;
    }
    let url: string | null = null;
    let cancelled = false;
    setState({ kind: 'loading' });
    fetchBlob('/generic/downloadAttachment', { method: 'POST', body: { id, inline: true }, quiet: true })
      .then(({ blob, contentType, fileName }) => {
        if (cancelled) return;
        url = URL.createObjectURL(new Blob([blob], { type: contentType }));
        setState({ kind: 'ready', url, contentType, fileName });
      })
      .catch((error: unknown) => {
        if (!cancelled) setState({ kind: 'failed', message: error instanceof ApiError ? error.message : String(error) });
      });
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [id]);

  return (
    <div data-testid="preview-screen" style={{ padding: 16, minHeight: '100vh', background: '#f5f5f5' }}>
      {state.kind === 'loading' && <Spin />}
      {state.kind === 'missing' && <Result status="warning" title={t('ui.preview.missing')} />}
      {state.kind === 'failed' && <Result status="error" title={t('ui.preview.failed')} subTitle={state.message} data-testid="preview-failed" />}
      {state.kind === 'ready' && (
        <>
          <Typography.Title level={5} data-testid="preview-name">
            {state.fileName}
          </Typography.Title>
          {state.contentType.startsWith('image/') ? (
            <img data-testid="preview-image" src={state.url} alt={state.fileName} style={{ maxWidth: '100%', maxHeight: '85vh', background: '#fff' }} />
          ) : state.contentType === 'application/pdf' ? (
            <iframe data-testid="preview-pdf" src={state.url} title={state.fileName} style={{ width: '100%', height: '85vh', border: 0, background: '#fff' }} />
          ) : (
            <Result status="info" title={t('ui.preview.notPreviewable')} />
          )}
        </>
      )}
    </div>
  );
}
