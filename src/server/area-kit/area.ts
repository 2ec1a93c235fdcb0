import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { Kysely, Migration, Transaction } from 'kysely';
import type { Static, TObject } from 'typebox';
import type { PageDefinition, ScalarValue } from '../../../engine/schema/index.js';
import type { BehaviourLink } from '../../../engine/schema/api.js';
import type { EngineRow, EngineSession, RowFilter } from '../../../engine/server/index.js';
import type { AreaErrorStatuses, ErrorCode } from '../../common/errors.js';
import type { PageDeclaration } from '../../common/page-routes.js';
import type { RightName } from '../../common/rights.js';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/schema.js';
import type { DomainEventName, DomainEventHandler, EventBus } from '../events/events.js';
import type { SessionUser } from '../http/access.js';

/**
 * The kit every business area is built with (src/server/modules/README.md). An area is a folder
 * `src/server/modules/<area>/` whose `<area>.module.ts` declares, with `defineModule`, everything
 * it brings: its migrations, routes, behaviours, writers, right verbs, jobs and event handlers; its
 * tables are declared in `<area>.tables.ts` by adding them to the `DB` interface. The list in
 * `modules/index.ts` is the only place an area is added.
 */

/** What a behaviour's `run` gets: the open transaction, the page, the caller, the selected rows (in scope) and the checked inputs. */
export interface BehaviourContext<Inputs = Record<string, ScalarValue>> {
  trx: Transaction<DB>;
  /**
   * The database outside the action's transaction, only for what other servers must see while the
   * action goes on (a billing run's progress, in short transactions of its own). The action's own
   * writes go through `trx`. On the embedded database a transaction opened here waits for `trx`.
   */
  db: Kysely<DB>;
  /** Emit domain events here: delivered only after the transaction commits. */
  events: EventBus;
  page: PageDefinition;
  session: EngineSession;
  user: SessionUser;
  rows: EngineRow[];
  inputs: Inputs;
}

/**
 * What a behaviour's `preview` gets: the same page, caller and selected rows (in scope, enabling
 * rule checked) as `run` would, but a database handle inside a READ ONLY transaction instead of
 * `trx`, and no event bus: a preview can read anything the run would, and any write it tries is
 * refused by the database. `Kysely<DB>` on purpose: functions that write take `Transaction<DB>`.
 */
export interface BehaviourPreviewContext<Inputs = Record<string, ScalarValue>> {
  db: Kysely<DB>;
  page: PageDefinition;
  session: EngineSession;
  user: SessionUser;
  rows: EngineRow[];
  inputs: Inputs;
}

/**
 * What a preview answers: the locale key (with its params) of the sentence the confirm dialog
 * shows above the behaviour's fixed confirm text, e.g. "2 orders: 15 allocated units will be given
 * back". `refusal` says the run would be refused (an error code of common/errors and its params):
 * the dialog shows it and offers no OK.
 */
export interface BehaviourPreview {
  messageCode: string;
  messageParams?: Record<string, string | number>;
  refusal?: { code: ErrorCode; params?: Record<string, string | number> };
}

export interface BehaviourOutcome {
  result?: unknown;
  messageCode?: string;
  messageParams?: Record<string, string | number>;
  /** Pages the success message offers to open (the document the action made). */
  links?: BehaviourLink[];
}

/**
 * A named action that page behaviours may name (see modules/README.md). `inputs` is one TypeBox
 * object schema: a definition's declared inputs are checked against it at publish, and the values
 * are checked against it before `run`. `right` is the action's own verb, e.g.
 * `outbound.so:allocate`, held beside view/add/edit/delete and granted on the role screen; the
 * caller needs it in addition to the behaviour's page right.
 */
export interface BehaviourDefinition<Inputs extends TObject = TObject> {
  name: string;
  inputs?: Inputs;
  right?: RightName;
  run(context: BehaviourContext<Static<Inputs>>): Promise<BehaviourOutcome | void>;
  /**
   * Optional, read only: what `run` would do to these rows, computed on the server, for the
   * confirmation of a destructive action (a page behaviour with `confirm` and `confirmPreview`).
   * `/api/generic/behavior` with `preview: true` makes every check a real run makes (session, page
   * right, the action's right, scope, selection, `enabledBy`, inputs), then calls this in a READ ONLY
   * transaction and answers its message without running anything. Without it, a preview request
   * is refused (BEHAVIOUR_NO_PREVIEW) and a definition may not set `confirmPreview`.
   */
  preview?: (context: BehaviourPreviewContext<Static<Inputs>>) => Promise<BehaviourPreview>;
}

export function defineBehaviour<Inputs extends TObject>(definition: BehaviourDefinition<Inputs>): BehaviourDefinition {
  return definition;
}

export type WriterOperation = 'add' | 'update' | 'delete' | 'import';

interface WriterContextBase {
  trx: Transaction<DB>;
  /** Emit domain events here: delivered only after the transaction commits. */
  events: EventBus;
  page: PageDefinition;
  session: EngineSession;
  user: SessionUser;
  operation: WriterOperation;
}

export interface BeforeSaveContext extends WriterContextBase {
  operation: 'add' | 'update' | 'import';
  /** The stored row before the change (null when adding). */
  old: EngineRow | null;
  /** The columns about to be written; the writer may change, add or remove them. */
  values: Record<string, unknown>;
  /** The whole record after the change (stored row + changes), fields that are not stored included. */
  merged: Record<string, unknown>;
  /** Checked values of the page's fields that are not columns (`stored: false`), e.g. a new password. */
  unstored: Record<string, unknown>;
}

export interface AfterSaveContext extends WriterContextBase {
  operation: 'add' | 'update' | 'import';
  old: EngineRow | null;
  /** The row as written, read back inside the transaction. */
  row: EngineRow;
  unstored: Record<string, unknown>;
}

export interface BeforeDeleteContext extends WriterContextBase {
  operation: 'delete';
  old: EngineRow;
}

/**
 * Domain rules on engine saves (after the document controllers of Frappe): a page
 * definition names a writer, whose hooks run inside the engine's transaction on add, update,
 * delete and import. A hook refuses by throwing an AppError (nothing is written); `beforeSave`
 * may change the values it is given.
 */
export interface WriterDefinition {
  name: string;
  beforeSave?(context: BeforeSaveContext): Promise<void>;
  afterSave?(context: AfterSaveContext): Promise<void>;
  beforeDelete?(context: BeforeDeleteContext): Promise<void>;
}

export function defineWriter(definition: WriterDefinition): WriterDefinition {
  return definition;
}

/** A right verb an area declares (`inventory.adjust:approve`), granted per role on the role screen. */
export interface RightVerbDefinition {
  right: RightName;
  /** Locale key of its label on the role screen. */
  labelCode: string;
}

/** What a job handler's `run` gets: the database, the job's parameters, and where to write its log. */
export interface JobContext {
  db: Kysely<DB>;
  /** The job's parameters (name, value, seq) by name. */
  params: Record<string, string>;
  /** Appends a line to the run's log, shown in the job's run history. */
  log: (line: string) => void;
  config: AppConfig;
  logger: FastifyBaseLogger;
  /** The run's attempt, 1 for the first. */
  attempt: number;
  /** The run: its id, what started it and the tick (or request time) it is for. */
  run: { id: number; trigger: 'schedule' | 'manual'; scheduledFor: Date };
  /**
   * The job being run: who created it receives what it produces when no one else is named; the
   * project and warehouse it belongs to (null for a job of a system class).
   */
  job: { id: number; name: string; createdBy: string | null; projectId?: number | null; warehouseId?: number | null };
  /** The bus a handler raises notifications and domain events with, inside its own transactions. */
  events: EventBus;
}

/**
 * A background job handler an area brings: a job (the /job screen) names it as its class, and the
 * job runner runs it on the job's schedule or on "run now". It throws to fail the attempt (the
 * runner retries with back-off, then records the run failed).
 */
export interface JobDefinition {
  /** `<area>.<name>`, e.g. `auth.purgeExpired`. */
  name: string;
  /**
   * `project` (the default): a job of this class belongs to the project it was made in, and its
   * parameters `project`, `warehouse` and `user` may name only what its maker and its creator may
   * see there (checked on save and before every run). `system`: the class works across projects
   * (a purge, the outbox); its jobs belong to no project and only administrators make and see them.
   */
  scope?: 'project' | 'system';
  run(context: JobContext): Promise<void>;
}

export type EventHandlers = { [Name in DomainEventName]?: DomainEventHandler<Name>[] };

/** The user a live session belongs to, with the language and end of that session. */
export type ResolvedSession = SessionUser & { language: string; expiresAt: Date };

/**
 * Turns a bearer token into the session's user (undefined when it opens no live session). The
 * kernel's access check asks it on every request; one area (auth) contributes it.
 */
export interface SessionResolver {
  resolve(db: Kysely<DB>, token: string): Promise<ResolvedSession | undefined>;
}

/** Whether a user holds a right (one of the four actions or an area's verb); one area (access) contributes it. */
export interface RightChecker {
  hasRight(db: Kysely<DB>, user: SessionUser, right: RightName): Promise<boolean>;
}

/** Hashing of passwords for the administrator seeded on the first start; one area (auth) contributes it. */
export interface PasswordHasher {
  /** A random password that satisfies the password policy. */
  generatePassword(): string;
  hashPassword(password: string): Promise<string>;
}

/** Where in the seeded database an area's demonstration data goes. */
export interface DemoDataContext {
  organizationId: number;
  projectId: number;
}

/**
 * An area's part of the demonstration data: it writes inside the one demo transaction and answers
 * how many rows of each kind it made. Parts run in the order of the module list, so an area may
 * build on what an earlier one made (outbound orders on inbound stock).
 */
export interface DemoDataProvider {
  load(trx: Transaction<DB>, context: DemoDataContext): Promise<Record<string, number>>;
}

/**
 * A read model: SQL of this area that reads tables another area owns (declares in its `*.tables.ts`),
 * declared so that such a read is a known, named dependency instead of a hidden one. The area
 * owning the tables keeps them in step with its read models when it changes them. An area never
 * writes another area's tables: it calls that area's service (its `index.ts`).
 */
export interface ReadModelDefinition {
  /** `<area>.<name>`, e.g. `outbound.pickList`. */
  name: string;
  /** The files of the area holding its SQL, relative to the area's folder, e.g. `wave.repository.ts`. */
  files: string[];
  /** The other areas' tables it reads. */
  reads: string[];
  /** One line: what it is for. */
  purpose: string;
}

/** The roles a new installation starts with. */
export const SEEDED_ROLES = ['Administrator', 'Supervisor', 'Operator', 'Configurator', 'Read-only'] as const;
export type SeededRole = (typeof SEEDED_ROLES)[number];

/**
 * Rights the seeded roles get when the area is first installed: applied once, at the first start
 * that finds the area in the module list, so an administrator's later revoke stays revoked.
 */
export interface DefaultGrant {
  /** A role of the first start, by name. */
  role: SeededRole;
  /** Page rights (`<module>[.<sub>]:view|add|edit|delete`) and verbs of the area's `rights`. */
  rights: RightName[];
}

/** The seeded roles that do the work of a page (view and edit it); the others only view it. */
const WORKING_ROLES: readonly SeededRole[] = ['Administrator', 'Supervisor', 'Operator'];

/**
 * The default grants of a page every seeded role uses (`<module>.<page>`): administrators,
 * supervisors and operators view and edit it, configurators and the read-only role view it.
 */
export function workPageGrants(page: `${string}.${string}`): DefaultGrant[] {
  return SEEDED_ROLES.map((role) => ({ role, rights: WORKING_ROLES.includes(role) ? [`${page}:view`, `${page}:edit`] : [`${page}:view`] }));
}

/**
 * A count of open work on the home page: the rows of a warehouse's work table by status, leaving
 * out the statuses that end the work. Its title is the text `ui.home.source.<kind>`, a status's
 * label `ui.home.status.<kind>.<status>` (the status itself when there is none).
 */
export interface HomeWorkItem {
  kind: string;
  /** The table holding the work, the first of these that exists with `status` and `warehouse_id` columns. */
  tables: readonly string[];
  /** Statuses (lower case) that are not open work any more. */
  terminal: readonly string[];
  /** Place on the home page: items sort by it, then in module-list order (left out: after those with one). */
  position?: number;
  /** The text key prefix of its statuses (`<prefix>.<status>`), e.g. `inb.status`; left out: `ui.home.status.<kind>`. */
  statusTexts?: string;
  /**
   * The page route that lists this work (a route of the route table). The home page opens it from
   * the count, and from a status chip filtered to that status when the route is a page definition.
   */
  listRoute?: string;
}

export interface AreaModule {
  /** The folder name; also the prefix of its behaviour, writer and job names. */
  name: string;
  /** Kysely migrations by name; names sort in the order they run across every area. */
  migrations?: Record<string, Migration>;
  /** Fastify routes, registered under /api. */
  routes?: FastifyPluginAsync;
  behaviours?: BehaviourDefinition[];
  writers?: WriterDefinition[];
  rights?: RightVerbDefinition[];
  /** Tables only this area's service may write: an engine page over them needs a writer to add, edit or delete. */
  serviceOnlyTables?: string[];
  /**
   * Its routes a page definition may name as the source of a dropdown's choices (options `route`),
   * as `METHOD /path` without /api and query (`GET /inventory/reasonCode`). The browser calls them
   * as the user; each answers `{ options: [{ value, label }] }` or `{ items: [...] }`, checks the
   * caller's session and rights itself, and the area's writer checks a stored value, which the
   * engine cannot.
   */
  choiceRoutes?: string[];
  jobs?: JobDefinition[];
  events?: EventHandlers;
  /** Named row filters page definitions may use (`rowFilter`); a name belongs to one area. */
  rowFilters?: ReadonlyMap<string, RowFilter>;
  /** The one area that resolves sessions contributes this. */
  sessions?: SessionResolver;
  /** The one area that decides rights contributes this. */
  rightChecker?: RightChecker;
  /** The one area that keeps passwords contributes this. */
  passwords?: PasswordHasher;
  /** The area's part of the demonstration data (DEMO_DATA). */
  demoData?: DemoDataProvider;
  /** Where the area's SQL reads other areas' tables, by name (see ReadModelDefinition). */
  readModels?: ReadModelDefinition[];
  /** Its /page routes and their menu entries, merged by the kernel in module-list order into the one route table. */
  pages?: PageDeclaration[];
  /**
   * Its own error codes with their HTTP status. The codes are added to `AreaErrorCodes` of
   * common/errors.ts (declaration merging, as tables are added to `DB`) so that `AppError` takes
   * them; their texts are `errors.<CODE>` of the area's locale files.
   */
  errors?: AreaErrorStatuses;
  /** Rights the seeded roles get when the area is first installed. */
  defaultGrants?: DefaultGrant[];
  /** Its counts of open work on the home page. */
  homeItems?: HomeWorkItem[];
  /**
   * The folder holding the area's `locales/<area>/` and `definitions/<module>/` trees when the area
   * lives outside the repository (the tests' throw-away area); an area of the repository leaves it
   * out, its files are in the repository's `locales/` and `definitions/`.
   */
  contentRoot?: string;
}

export function defineModule(module: AreaModule): AreaModule {
  return module;
}
