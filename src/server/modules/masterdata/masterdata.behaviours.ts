import { Type } from 'typebox';
import { AppError } from '../../../common/errors.js';
import { defineBehaviour } from '../area.js';
import { GENERATE_LOCATIONS_ACTION, readGenerateLocationsInputs } from './generate-locations.behaviour.js';
import { generateLocations } from './location-generator.service.js';

/** How many skipped codes the answer lists; the count is always complete. */
const SKIPPED_SHOWN = 200;

const RangeEnd = Type.String({ maxLength: 10 });
const Optional = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

/** The inputs of /loa "generate": ranges and capacities; the warehouse is always the session's. */
export const GenerateLocationsInputs = Type.Object({
  aisleFrom: RangeEnd,
  aisleTo: RangeEnd,
  bayFrom: RangeEnd,
  bayTo: RangeEnd,
  levelFrom: RangeEnd,
  levelTo: RangeEnd,
  positionFrom: Optional(RangeEnd),
  positionTo: Optional(RangeEnd),
  separator: Optional(Type.String({ maxLength: 3 })),
  zone: Optional(Type.String({ maxLength: 20 })),
  locationType: Optional(Type.String({ maxLength: 20 })),
  maxPallets: Optional(Type.Integer({ minimum: 0 })),
  // Decimals travel as text, exact.
  maxWeightKg: Optional(Type.String()),
  maxVolumeCm3: Optional(Type.String()),
});

/** /loa "generate": every location of the ranges in the session's warehouse. */
export const generateLocationsBehaviour = defineBehaviour({
  name: GENERATE_LOCATIONS_ACTION,
  inputs: GenerateLocationsInputs,
  right: 'masterdata.loa:generate',
  async run({ trx, session, inputs }) {
    if (session.warehouseId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
    const result = await generateLocations(trx, readGenerateLocationsInputs(inputs, session.warehouseId), session.loginAccount);
    return {
      result: { requested: result.requested, created: result.created, skippedCount: result.skipped.length, skipped: result.skipped.slice(0, SKIPPED_SHOWN) },
      messageCode: 'md.behaviour.generateLocationsDone',
      messageParams: { created: result.created, skipped: result.skipped.length },
    };
  },
});
