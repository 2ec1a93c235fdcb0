import { useState } from 'react';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ToolbarActionProps } from './toolbar-actions';
import { ManualAllocationDialog } from './ManualAllocation';

/**
 * The toolbar of a sales order's lines tab: "Allocate manually" for the one selected line, the
 * same dialog as on the order list (the stock the line may take, a qty per row), opened on that
 * line. Offered with the editing right, as on the order list; the server checks the allocate right.
 */
export default function SoLineActions({ rights, selected, reload }: ToolbarActionProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const line = selected.length === 1 ? (selected[0] as { _key?: unknown; so_id?: unknown }) : null;
  const lineId = line ? Number(line._key) : null;
  const soId = line ? Number(line.so_id) : null;
  if (!rights.view || !rights.edit) return null;
  return (
    <>
      <Button data-testid="so-line-manual-allocation" disabled={lineId === null || !soId} onClick={() => setOpen(true)}>
        {t('outbound.soTools.allocateManually')}
      </Button>
      {open && lineId !== null && soId !== null && (
        <ManualAllocationDialog soId={soId} lineId={lineId} onClose={() => setOpen(false)} onDone={reload} />
      )}
    </>
  );
}
