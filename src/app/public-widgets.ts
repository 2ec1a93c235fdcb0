/**
 * The shell's widgets the hand-written screens share (a compact table, a toolbar button opening a
 * dialog). Apart from src/app/public so that the sign-in page, which loads that entry, does not load
 * the table and its dependencies.
 */
export { CompactTable, textColumns } from './widgets/CompactTable';
export { DialogButton, dialogAction, type ToolbarActionProps, type ToolbarActions } from './widgets/DialogButton';
export { EChart } from './widgets/EChart';
