import { useTranslation } from 'react-i18next';
import type { ToolbarActionProps } from './toolbar-actions';
import { ManualAllocationDialog } from './ManualAllocation';
import { DialogButton } from '../../app/public-widgets';

/**
 * The toolbar of a sales order's lines tab: "Allocate manually" for the one selected line, the
 * same dialog as on the order list (the stock the line may take, a qty per row), opened on that
 * line. Offered with the editing right, as on the order list; the server checks the allocate right.
 */
export default function SoLineActions({ rights, selected, reload }: ToolbarActionProps) {
  const { t } = useTranslation();
  const line = selected.length === 1 ? (selected[0] as { _key?: unknown; so_id?: unknown }) : null;
  const lineId = line ? Number(line._key) : null;
  const soId = line ? Number(line.so_id) : null;
  return (
    <DialogButton
      allowed={rights.view && rights.edit}
      disabled={lineId === null || !soId}
      testId="so-line-manual-allocation"
      label={t('outbound.soTools.allocateManually')}
      dialog={(close) => lineId !== null && soId !== null && <ManualAllocationDialog soId={soId} lineId={lineId} onClose={close} onDone={reload} />}
    />
  );
}
