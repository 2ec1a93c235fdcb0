import { AppError } from '../../../common/errors.js';
import { defineWriter } from '../area.js';
import { nextDocumentNumber } from '../masterdata/index.js';
import { nextLineNo } from './document.repository.js';
import { ID_RULES, checkHeader, checkLine, docTypeOfPage, documentScope, openDocumentForLines } from './document.service.js';
import { checkCountEntry, openTicketForLines } from './count.service.js';

/**
 * Domain rules on the engine's saves of the inventory documents: the
 * number and type of a new document come from its page; header and lines change only while the
 * document is new; a save that changes nothing answers DATA_NOT_CHANGED; each line has the
 * fields its type requires and enough inventory behind it.
 */

function scalarText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const emptyA = a === null || a === undefined || a === '';
  const emptyB = b === null || b === undefined || b === '';
  if (emptyA || emptyB) return emptyA && emptyB;
  const textA = scalarText(a);
  const textB = scalarText(b);
  // Numbers travel as text (numeric) or numbers: 4 and '4.0000' are the same quantity.
  if (typeof a !== 'boolean' && typeof b !== 'boolean' && textA.trim() !== '' && textB.trim() !== '' && !Number.isNaN(Number(textA)) && !Number.isNaN(Number(textB))) {
    return Number(textA) === Number(textB);
  }
  return textA === textB;
}

/** Unchanged data needs no save: an update whose values equal the stored row is refused. */
function refuseUnchanged(old: Record<string, unknown>, values: Record<string, unknown>): void {
  if (Object.keys(values).every((name) => !(name in old) || same(old[name], values[name]))) throw new AppError('DATA_NOT_CHANGED');
}

function requireDocType(functionCode: string) {
  const type = docTypeOfPage(functionCode);
  if (!type) throw new AppError('SYSTEM_CONFIG');
  return type;
}

export const documentWriter = defineWriter({
  name: 'inventory.document',

  async beforeSave({ trx, page, user, old, values, merged }) {
    const docType = requireDocType(page.functionCode);
    const actor = { user };
    const scope = documentScope(actor);
    if (old === null) {
      values.project_id = scope.projectId;
      values.doc_type = docType;
      values.status = 'new';
      values.doc_no = await nextDocumentNumber(trx, ID_RULES[docType], { warehouseId: scope.warehouseId, projectId: scope.projectId });
    } else {
      if (old.status !== 'new') throw new AppError('ORDER_STATUS_ERROR', { status: String(old.status) });
      refuseUnchanged(old, values);
      for (const name of ['doc_type', 'doc_no', 'status', 'project_id', 'requested_by', 'approved_by', 'confirmed_by']) delete values[name];
    }
    if (docType !== 'transfer') values.to_warehouse_id = null;
    await checkHeader(trx, actor, { ...merged, ...values, doc_type: docType });
  },

  async beforeDelete({ old }) {
    if (old.status !== 'new') throw new AppError('DELETE_CANCEL_NOT_ALLOWED');
  },
});

export const documentLineWriter = defineWriter({
  name: 'inventory.documentLine',

  async beforeSave({ trx, page, user, old, values, merged }) {
    const docType = requireDocType(page.functionCode);
    const actor = { user };
    const documentId = Number(old?.document_id ?? values.document_id ?? merged.document_id);
    if (!Number.isInteger(documentId) || documentId <= 0) throw new AppError('VALIDATION_FAILED', {}, [{ field: 'document_id', code: 'FIELD_REQUIRED' }]);
    const doc = await openDocumentForLines(trx, actor, documentId, docType);
    if (old === null) {
      values.project_id = doc.project_id;
      values.document_id = documentId;
      values.line_no = await nextLineNo(trx, documentId);
    } else {
      refuseUnchanged(old, values);
      delete values.document_id;
      delete values.line_no;
    }
    if (values.lpn === null) values.lpn = '';
    delete values.transit_location_id;
    await checkLine(trx, actor, doc, { ...merged, ...values });
  },

  async beforeDelete({ trx, page, user, old }) {
    await openDocumentForLines(trx, { user }, Number(old.document_id), requireDocType(page.functionCode));
  },
});

/** Count ticket lines: the blind count entry (counted or recounted qty) while the ticket is open. */
export const countLineWriter = defineWriter({
  name: 'inventory.countLine',

  async beforeSave({ trx, user, events, old, values }) {
    if (old === null) throw new AppError('PAGE_READ_ONLY');
    const ticket = await openTicketForLines(trx, { user }, Number(old.ticket_id));
    refuseUnchanged(old, values);
    await checkCountEntry(trx, { user, events }, ticket, old, values);
  },
});

/** Count plans of the count master belong to the session's project and warehouse. */
export const countPlanWriter = defineWriter({
  name: 'inventory.countPlan',

  async beforeSave({ user, old, values }) {
    const scope = documentScope({ user });
    if (old === null) values.project_id = scope.projectId;
    else refuseUnchanged(old, values);
  },
});
