/**
 * The public entry of the printing area: what other areas may use of it. Another area imports this
 * file and nothing else of the folder (lint: local/import-boundaries).
 */
export { nextSscc, isSscc } from './sscc.js';
export { cartonLabelZpl, palletLabelZpl, type CartonLabel, type LabelKind } from './zpl.js';
export { labelPdf } from './label-pdf.js';
export { enqueuePrint, labelInputs, labelPrinters, recordFailedPrint, printerOfJob, printLabel, sendPrintJobs, type SendOutcome, type PrintLabelRequest, type PrintRequest } from './printing.service.js';
