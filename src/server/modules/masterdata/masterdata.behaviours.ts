import { AppError } from '../../../common/errors.js';
import { registerBehaviour } from '../generic/behaviours.js';
import { GENERATE_LOCATIONS_ACTION, readGenerateLocationsInputs } from './generate-locations.behaviour.js';
import { generateLocations } from './location-generator.service.js';

/** How many skipped codes the answer lists; the count is always complete. */
const SKIPPED_SHOWN = 200;

/** Registers the named actions the master-data definitions use (DESIGN.md section 6). */
export function registerMasterdataBehaviours(): void {
  // /loa "generate": the ranges come from the behaviour's inputs, the warehouse from the session.
  registerBehaviour(GENERATE_LOCATIONS_ACTION, async ({ trx, session, inputs }) => {
    if (session.warehouseId === null) throw new AppError('OUT_OF_SCOPE', { scope: 'warehouse' });
    const result = await generateLocations(trx, readGenerateLocationsInputs(inputs, session.warehouseId), session.loginAccount);
    return {
      result: { requested: result.requested, created: result.created, skippedCount: result.skipped.length, skipped: result.skipped.slice(0, SKIPPED_SHOWN) },
      messageCode: 'md.behaviour.generateLocationsDone',
      messageParams: { created: result.created, skipped: result.skipped.length },
    };
  });
}
