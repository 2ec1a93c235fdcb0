/**
 * The public entry of the resource planning area: what other areas may use of it. Another area
 * imports this file and nothing else of the folder (lint: local/import-boundaries).
 */
export { RESPLAN_ACTIVITIES, RESPLAN_EQUIPMENT_KINDS } from '../../../common/resplan-api.js';
export type { ResPlanActivity, ResPlanEquipmentKind, ResPlanHeader, ResPlanLine } from '../../../common/resplan-api.js';
