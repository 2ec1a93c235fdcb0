import type { Kysely, Transaction } from 'kysely';
import { AppError, type FieldError } from '../../../common/errors.js';
import {
  actionNamed,
  shippedDefinition,
  type DeviceSessionRow,
  type HandheldConfigDetail,
  type HandheldDefinition,
  type HandheldFlowAnswer,
  type HandheldFunction,
  type LocationRule,
  type ScanStep,
  type SuggestLocationAnswer,
} from '../../../common/handheld-api.js';
import type { DB } from '../../db/schema.js';
import { findUserProjects } from '../identity/index.js';
import { warehouseParam } from '../masterdata/index.js';
import * as repo from './handheld.repository.js';

/** Who works where: the session's user, project and warehouse. */
export interface HandheldPlace extends repo.Place {
  userId: number;
  login: string;
  isAdmin: boolean;
}

/**
 * What publishing refuses, each with its field: a step or the order search without a scan name, an
 * action no code offers for the configuration's function, a target field the action does not fill.
 */
export function definitionProblems(fn: HandheldFunction, definition: HandheldDefinition): FieldError[] {
  const problems: FieldError[] = [];
  const check = (step: ScanStep, at: string, kind: 'search' | 'step') => {
    if (step.scanName.trim() === '') problems.push({ field: `${at}.scanName`, code: 'FIELD_REQUIRED', params: { field: `${at}.scanName` } });
    const action = actionNamed(step.action);
    if (!action || action.fn !== fn || action.kind !== kind) {
      problems.push({ field: `${at}.action`, code: 'HH_ACTION_UNKNOWN', params: { field: `${at}.action`, action: step.action, fn } });
    } else if (!action.targets.includes(step.targetField)) {
      problems.push({ field: `${at}.targetField`, code: 'HH_TARGET_UNKNOWN', params: { field: `${at}.targetField`, target: step.targetField, action: step.action } });
    }
  };
  if (definition.orderSearch) check(definition.orderSearch, 'orderSearch', 'search');
  definition.steps.forEach((step, index) => check(step, `steps[${index}]`, 'step'));
  const names = new Set<string>();
  definition.steps.forEach((step, index) => {
    const name = step.scanName.trim().toLowerCase();
    if (name === '') return;
    if (names.has(name)) problems.push({ field: `steps[${index}].scanName`, code: 'FIELD_NOT_UNIQUE', params: { field: `steps[${index}].scanName` } });
    names.add(name);
  });
  return problems;
}

export async function configDetail(db: Kysely<DB>, place: HandheldPlace, id: number): Promise<HandheldConfigDetail> {
  const config = await repo.findConfig(db, place, id);
  if (!config) throw new AppError('NO_RECORD');
  return { ...config, versions: await repo.versionsOf(db, id) };
}

export async function createConfig(
  trx: Transaction<DB>,
  place: HandheldPlace,
  values: { code: string; name: string; fn: HandheldFunction; status: 'active' | 'inactive'; draft?: HandheldDefinition },
): Promise<HandheldConfigDetail> {
  const code = values.code.trim();
  if (await repo.codeTaken(trx, place, code)) throw new AppError('HH_CODE_TAKEN', { code });
  const id = await repo.insertConfig(trx, place, { ...values, code, draft: values.draft ?? shippedDefinition(values.fn) }, place.login);
  return configDetail(trx, place, id);
}

export async function saveDraft(
  trx: Transaction<DB>,
  place: HandheldPlace,
  values: { id: number; name: string; status: 'active' | 'inactive'; draft: HandheldDefinition },
): Promise<HandheldConfigDetail> {
  const config = await repo.findConfig(trx, place, values.id, true);
  if (!config) throw new AppError('NO_RECORD');
  await repo.updateDraft(trx, values.id, values, place.login);
  return configDetail(trx, place, values.id);
}

/** Publishes the draft as the next version, or refuses it with the fields that are wrong. */
export async function publish(trx: Transaction<DB>, place: HandheldPlace, id: number): Promise<HandheldConfigDetail> {
  const config = await repo.findConfig(trx, place, id, true);
  if (!config) throw new AppError('NO_RECORD');
  const problems = definitionProblems(config.fn, config.draft);
  if (problems.length > 0) throw new AppError('VALIDATION_FAILED', {}, problems);
  await repo.insertVersion(trx, id, (config.publishedVersion ?? 0) + 1, config.draft, place.login);
  return configDetail(trx, place, id);
}

/** Copies a configuration's draft to another project of the user, in the same warehouse, as a new unpublished configuration. */
export async function copyToProject(trx: Transaction<DB>, place: HandheldPlace, values: { id: number; projectId: number; code?: string }): Promise<{ id: number; projectId: number; code: string }> {
  const config = await repo.findConfig(trx, place, values.id);
  if (!config) throw new AppError('NO_RECORD');
  const projects = await findUserProjects(trx, place.userId, place.isAdmin);
  if (!projects.some((p) => Number(p.id) === values.projectId)) {
    throw new AppError('VALIDATION_FAILED', {}, [{ field: 'projectId', code: 'FIELD_FOREIGN', params: { field: 'projectId' } }]);
  }
  const target = { projectId: values.projectId, warehouseId: place.warehouseId };
  const code = (values.code ?? config.code).trim();
  if (await repo.codeTaken(trx, target, code)) throw new AppError('HH_CODE_TAKEN', { code });
  const id = await repo.insertConfig(trx, target, { code, name: config.name, fn: config.fn, status: config.status, draft: config.draft }, place.login);
  return { id, projectId: values.projectId, code };
}

/** What the runtime runs for a function: the published version of the active configuration, or the shipped flow. */
export async function flowOf(db: Kysely<DB>, place: HandheldPlace, fn: HandheldFunction): Promise<HandheldFlowAnswer> {
  const found = await repo.publishedFlow(db, place, fn);
  if (!found) return { configId: null, code: null, version: null, definition: shippedDefinition(fn) };
  return { configId: Number(found.id), code: found.code, version: found.version, definition: found.definition };
}

/** The system parameters naming a project's and a warehouse's handheld location (docs/handheld.md). */
export const PROJECT_LOCATION_PARAM = 'HH_PROJECT_LOCATION';
export const WAREHOUSE_LOCATION_PARAM = 'HH_WAREHOUSE_LOCATION';

/**
 * The location a parameter names for this project or warehouse: `<param>.<code>` first, then
 * `<param>` itself (for the organization's warehouses alike); only an active location of the
 * session's warehouse counts.
 */
async function locationOfParam(db: Kysely<DB>, place: HandheldPlace, param: string, code: string | null): Promise<string | null> {
  const value = (code ? await warehouseParam(db, place.warehouseId, `${param}.${code}`) : null) ?? (await warehouseParam(db, place.warehouseId, param));
  return value ? repo.activeLocationCode(db, place.warehouseId, value) : null;
}

/** The location of the SKU's item type: its SKU group names the zone of the locations kept for it. */
async function itemTypeLocation(db: Kysely<DB>, place: HandheldPlace, skuCode: string): Promise<string | null> {
  const group = await repo.skuGroupOf(db, place, skuCode);
  return group ? repo.locationOfZone(db, place.warehouseId, group) : null;
}

/** The first rule of the location logic, in its order, that finds a location. */
export async function suggestLocation(
  db: Kysely<DB>,
  place: HandheldPlace,
  input: { rules: LocationRule[]; skuCode?: string; lastLocation?: string | null; storage?: string | null },
): Promise<SuggestLocationAnswer> {
  for (const rule of input.rules) {
    let code: string | null = null;
    if (rule === 'lastLocation') code = input.lastLocation ?? null;
    else if (rule === 'storage') code = input.storage ?? null;
    else if (rule === 'sameSku' && input.skuCode) code = await repo.locationHoldingSku(db, place, input.skuCode, null);
    else if (rule === 'pick' && input.skuCode) code = await repo.locationHoldingSku(db, place, input.skuCode, 'pick');
    else if (rule === 'nextEmpty') code = await repo.nextEmptyLocation(db, place.warehouseId);
    else if (rule === 'itemType' && input.skuCode) code = await itemTypeLocation(db, place, input.skuCode);
    else if (rule === 'project') code = await locationOfParam(db, place, PROJECT_LOCATION_PARAM, (await repo.placeCodes(db, place)).project);
    else if (rule === 'warehouse') code = await locationOfParam(db, place, WAREHOUSE_LOCATION_PARAM, (await repo.placeCodes(db, place)).warehouse);
    if (code) return { locationCode: code, rule };
  }
  return { locationCode: null, rule: null };
}

// ---------------------------------------------------------------- device sessions

/**
 * Signs a handheld in for the user's shift: a device has one user at a time and a user one device,
 * so an earlier session of either ends.
 */
export async function signInDevice(trx: Transaction<DB>, place: HandheldPlace, deviceId: string, flow: string | null): Promise<DeviceSessionRow> {
  await repo.endSessions(trx, { deviceId }, place.login);
  await repo.endSessions(trx, { userId: place.userId }, place.login);
  await repo.insertSession(trx, place, place.userId, deviceId, flow, place.login);
  const session = await repo.sessionOfUser(trx, place.userId, place.warehouseId);
  if (!session) throw new AppError('NO_RECORD');
  return session;
}

export async function signOutDevice(trx: Transaction<DB>, place: HandheldPlace): Promise<{ ended: number }> {
  return { ended: await repo.endSessions(trx, { userId: place.userId }, place.login) };
}

/**
 * A scan of the runtime: the device's last scan time (and its flow). A device whose session a
 * supervisor ended is refused until it signs in again; a device another user has signed in since
 * records nothing.
 */
export async function recordScan(trx: Transaction<DB>, place: HandheldPlace, deviceId: string, flow: string | null): Promise<{ recorded: boolean }> {
  if ((await repo.touchSession(trx, place.userId, deviceId, flow, place.login)) > 0) return { recorded: true };
  if (await repo.endedBySupervisor(trx, place.userId, deviceId)) throw new AppError('HH_SESSION_ENDED', { deviceId });
  return { recorded: false };
}

/**
 * A supervisor ends a device session of the warehouse (/rfDevices): the device's next scan is
 * refused with `HH_SESSION_ENDED` and it signs in again. A session of another warehouse, or one
 * already ended, is not found.
 */
export async function endDeviceSession(trx: Transaction<DB>, place: HandheldPlace, id: number): Promise<DeviceSessionRow> {
  const session = await repo.openSessionInWarehouse(trx, id, place.warehouseId);
  if (!session) throw new AppError('NO_RECORD');
  await repo.endSessions(trx, { id, warehouseId: place.warehouseId }, place.login, 'supervisor');
  return session;
}

export const activeDevices = (db: Kysely<DB>, place: HandheldPlace) => repo.activeSessions(db, place.warehouseId);
export const mySession = (db: Kysely<DB>, place: HandheldPlace) => repo.sessionOfUser(db, place.userId, place.warehouseId);
export const listConfigs = (db: Kysely<DB>, place: HandheldPlace) => repo.listConfigs(db, place);
