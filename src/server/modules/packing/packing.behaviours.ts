import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import { isLanguage } from '../../../common/languages.js';
import type { EngineSession } from '../../../../engine/server/index.js';
import { defineBehaviour } from '../area.js';
import type { StockScope } from '../inventory/index.js';
import { addCartonToPallet, closePallet, createPallet, queuePalletLabel, removeCartonFromPallet } from './pallet.service.js';

/** The scope a pallet action works in: the caller's project, warehouse and login; refused without a project or a warehouse. */
function scopeOf(session: EngineSession): StockScope {
  if (session.projectId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'project' });
  if (session.warehouseId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
  return { projectId: session.projectId, warehouseId: session.warehouseId, operator: session.loginAccount };
}

const Text = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));
const Decimal = Type.Optional(Type.Union([Type.String({ pattern: '^[0-9]{1,12}(\\.[0-9]{1,4})?$' }), Type.Null()]));
const CartonInput = Type.Object({ carton: Type.String({ minLength: 1, maxLength: 100 }) });

/** The one pallet a behaviour runs on. */
function onePallet(rows: ReadonlyArray<{ _key: unknown }>): number {
  if (rows.length !== 1) throw new AppError('BEHAVIOUR_SELECTION');
  return Number(rows[0]._key);
}

/** New pallet: at the location typed (or scanned), with its type, dimensions and weight. */
export const createPalletBehaviour = defineBehaviour({
  name: 'packing.pallet.create',
  inputs: Type.Object({ locationCode: Type.String({ minLength: 1, maxLength: 60 }), palletType: Text(30), length: Decimal, width: Decimal, height: Decimal, grossWeight: Decimal, weightUom: Text(10) }),
  async run({ trx, session, inputs }) {
    const result = await createPallet(trx, scopeOf(session), inputs);
    return { result, messageCode: 'packing.pallet.created', messageParams: { palletNo: result.palletNo, sscc: result.sscc } };
  },
});

/** A carton scanned by its number or SSCC moves onto or off the selected pallet; the message names both. */
function cartonBehaviour(name: string, move: typeof addCartonToPallet, messageCode: string) {
  return defineBehaviour({
    name,
    inputs: CartonInput,
    async run({ trx, session, rows, inputs }) {
      const result = await move(trx, scopeOf(session), { palletId: onePallet(rows), carton: inputs.carton });
      return { result, messageCode, messageParams: { carton: inputs.carton.trim(), palletNo: result.palletNo } };
    },
  });
}

/** Add carton: a closed carton goes onto the selected pallet. */
export const addCartonBehaviour = cartonBehaviour('packing.pallet.addCarton', addCartonToPallet, 'packing.pallet.cartonAdded');

/** Remove carton: a carton comes off the selected pallet. */
export const removeCartonBehaviour = cartonBehaviour('packing.pallet.removeCarton', removeCartonFromPallet, 'packing.pallet.cartonRemoved');

/** Close pallet: the selected pallet, holding cartons, is closed with its gross weight; its label is queued on the printer for automatic labels. */
export const closePalletBehaviour = defineBehaviour({
  name: 'packing.pallet.close',
  inputs: Type.Object({ grossWeight: Decimal, weightUom: Text(10) }),
  async run({ trx, session, rows, inputs }) {
    const language = isLanguage(session.language) ? session.language : 'en';
    const result = await closePallet(trx, scopeOf(session), { palletId: onePallet(rows), ...inputs }, { language });
    return { result, messageCode: 'packing.pallet.closed', messageParams: { palletNo: result.palletNo } };
  },
});

/** Print label: the selected closed pallet's label again, queued on the printer for automatic labels. */
export const printPalletLabelBehaviour = defineBehaviour({
  name: 'packing.pallet.printLabel',
  inputs: Type.Object({}),
  async run({ trx, session, rows }) {
    const language = isLanguage(session.language) ? session.language : 'en';
    const result = await queuePalletLabel(trx, scopeOf(session), onePallet(rows), language);
    return { result, messageCode: 'packing.pallet.labelQueued', messageParams: { palletNo: result.palletNo, printer: result.label.printerName } };
  },
});

export const packingBehaviours = [createPalletBehaviour, addCartonBehaviour, removeCartonBehaviour, closePalletBehaviour, printPalletLabelBehaviour];
