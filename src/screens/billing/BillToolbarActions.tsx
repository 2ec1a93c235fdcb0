import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { download, fetchBlob } from '../../app/public';
import type { ToolbarActionProps } from './toolbar-actions';

/**
 * The bill list's own toolbar: the invoice of the selected bill as PDF (a confirmed or posted bill;
 * a draft is refused with its message) opened in a new tab, and its lines downloaded as an xlsx
 * workbook. Both need only the page's view right.
 */
export default function BillToolbarActions({ rights, selected }: ToolbarActionProps) {
  const { t } = useTranslation();
  const id = selected.length === 1 ? Number(selected[0]._key) : null;
  if (!rights.view) return null;

  const openInvoice = async () => {
    if (id === null) return;
    // Opened before the answer arrives so that the browser does not block it as a pop-up.
    const view = window.open('', '_blank');
    try {
      const file = await fetchBlob('/billing/invoice.pdf', { query: { id } });
      const url = URL.createObjectURL(file.blob);
      if (view) view.location.href = url;
      else window.location.assign(url);
    } catch {
      // The error popup has shown the refusal (a draft has no invoice yet).
      view?.close();
    }
  };

  return (
    <>
      <Button data-testid="billing-invoice-pdf" disabled={id === null} onClick={() => void openInvoice()}>
        {t('billing.tools.invoicePdf')}
      </Button>
      <Button data-testid="billing-export-lines" disabled={id === null} onClick={() => id !== null && void download('/billing/lines.xlsx', { query: { id } }).catch(() => undefined)}>
        {t('billing.tools.exportLines')}
      </Button>
    </>
  );
}
