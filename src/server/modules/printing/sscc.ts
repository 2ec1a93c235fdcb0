import { sql, type Transaction } from 'kysely';
import { AppError } from '../../../common/errors.js';
import { gs1CheckDigit } from '../../../common/gs1.js';
import type { DB } from '../../db/schema.js';

/** The system parameter holding the GS1 company prefix (global, or one row per organization). */
export const GS1_COMPANY_PREFIX_PARAM = 'GS1_COMPANY_PREFIX';

/** A GS1 company prefix as SSCCs take it: 7 to 10 digits. */
export function isCompanyPrefix(value: string): boolean {
  return /^[0-9]{7,10}$/.test(value);
}

/**
 * An SSCC (18 digits): the extension digit, the company prefix, the serial reference zero-padded to
 * fill 16 digits with the prefix, and the GS1 mod-10 check digit of the 17 before it.
 */
export function ssccOf(extensionDigit: number, companyPrefix: string, serial: number): string {
  if (!Number.isInteger(extensionDigit) || extensionDigit < 0 || extensionDigit > 9) throw new Error(`SSCC extension digit must be 0-9, got ${extensionDigit}`);
  if (!isCompanyPrefix(companyPrefix)) throw new AppError('GS1_PREFIX_INVALID', { prefix: companyPrefix });
  const serialLength = 16 - companyPrefix.length;
  if (!Number.isSafeInteger(serial) || serial < 0 || String(serial).length > serialLength) {
    throw new AppError('SSCC_SERIAL_EXHAUSTED', { prefix: companyPrefix, length: serialLength });
  }
  const body = String(extensionDigit) + companyPrefix + String(serial).padStart(serialLength, '0');
  return body + gs1CheckDigit(body);
}

/** Whether a text is an SSCC: 18 digits with the right check digit. */
export function isSscc(value: string): boolean {
  return /^[0-9]{18}$/.test(value) && gs1CheckDigit(value.slice(0, 17)) === value[17];
}

/** The company prefix that applies to a warehouse: its organization's parameter, else the global one. */
async function companyPrefixOf(trx: Transaction<DB>, warehouseId: number): Promise<string> {
  const warehouse = await trx.selectFrom('warehouse').select('organization_id').where('id', '=', warehouseId).executeTakeFirst();
  if (!warehouse) throw new AppError('NO_RECORD');
  const rows = await trx
    .selectFrom('sys_param')
    .select(['organization_id', 'param_value'])
    .where('param_code', '=', GS1_COMPANY_PREFIX_PARAM)
    .where((eb) => eb.or([eb('organization_id', 'is', null), eb('organization_id', '=', warehouse.organization_id)]))
    .execute();
  const value = ((rows.find((r) => r.organization_id !== null) ?? rows[0])?.param_value ?? '').trim();
  if (!isCompanyPrefix(value)) throw new AppError('GS1_PREFIX_INVALID', { prefix: value });
  return value;
}

/**
 * The next SSCC of a warehouse's organization. The serial reference comes from a database
 * sequence, which hands each number out once, to concurrent callers and across rollbacks, so an
 * SSCC is never made twice. The extension digit (0-9, default 0) is the packer's choice, e.g. per
 * packing station or kind of unit.
 */
export async function nextSscc(trx: Transaction<DB>, options: { warehouseId: number; extensionDigit?: number }): Promise<string> {
  const prefix = await companyPrefixOf(trx, options.warehouseId);
  const { rows } = await sql<{ serial: string }>`select nextval('printing_sscc_serial')::text as serial`.execute(trx);
  return ssccOf(options.extensionDigit ?? 0, prefix, Number(rows[0].serial));
}
