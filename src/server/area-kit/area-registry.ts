import type { Migration } from 'kysely';
import type { TObject } from 'typebox';
import { Value } from 'typebox/value';
import type { BehaviourInputDefinition, PageDefinition, ValidationProblem } from '../../../engine/schema/index.js';
import { parseRightName, isRightAction } from '../../common/rights.js';
import { AppError, isErrorCode, type ErrorCode, type FieldError } from '../../common/errors.js';
import { KERNEL_PAGES, mergePageRoutes, type RouteTable } from '../../common/page-routes.js';
import { eventMigrations } from '../events/events.js';
import type { RowFilter } from '../../../engine/server/index.js';
import { kitMigrations } from './migrations/index.js';
import './area.tables.js';
import type { AreaModule, BehaviourDefinition, HomeWorkItem, JobDefinition, PasswordHasher, RightChecker, RightVerbDefinition, SessionResolver, WriterDefinition } from './area.js';

const ERROR_CODE = /^[A-Z][A-Z0-9_]*$/;

const NAME = /^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/;
/** A route offered as a source of choices: its method and its path under /api, without a query. */
const CHOICE_ROUTE = /^(GET|POST) \/[A-Za-z][A-Za-z0-9_/-]*$/;

/** JSON types a behaviour's declared input of each type is handed to the action as. */
const INPUT_JSON_TYPES: Record<BehaviourInputDefinition['type'], string[]> = {
  text: ['string'],
  integer: ['integer', 'number'],
  // Decimals travel as text, exact (engine/schema: "number (decimal, as text)").
  number: ['string'],
  date: ['string'],
  boolean: ['boolean'],
};

/**
 * Everything the application's areas declare, gathered from the module list once per application
 * instance (never a process-wide object): behaviours, writers, right verbs, jobs, event handlers,
 * service-only tables and migrations. Refuses two areas declaring the same name.
 */
export class AreaRegistry {
  readonly modules: readonly AreaModule[];
  private readonly behaviours = new Map<string, BehaviourDefinition>();
  private readonly writers = new Map<string, WriterDefinition>();
  private readonly verbs = new Map<string, RightVerbDefinition>();
  private readonly jobs = new Map<string, JobDefinition>();
  private readonly serviceOnly = new Map<string, string>();
  /** `METHOD /path` of the routes page definitions may take dropdown choices from, by the area declaring it. */
  private readonly choiceRoutes = new Map<string, string>();
  private readonly filters = new Map<string, RowFilter>();
  private readonly errorStatuses = new Map<string, number>();
  /** The kernel's and the areas' /page routes, merged in module-list order. */
  readonly routeTable: RouteTable;
  /** The single contributions: each is brought by at most one area. */
  readonly sessions: SessionResolver | undefined;
  readonly rightChecker: RightChecker | undefined;
  readonly passwords: PasswordHasher | undefined;

  constructor(modules: readonly AreaModule[]) {
    this.modules = modules;
    const names = new Set<string>();
    const add = <T>(map: Map<string, T>, kind: string, name: string, value: T, area: string) => {
      if (!NAME.test(name) && kind !== 'right verb') throw new Error(`${kind} "${name}" of area ${area} is not <area>.<name>`);
      if (map.has(name)) throw new Error(`${kind} "${name}" is declared twice (area ${area})`);
      map.set(name, value);
    };
    for (const module of modules) {
      if (names.has(module.name)) throw new Error(`area ${module.name} is listed twice`);
      names.add(module.name);
      for (const b of module.behaviours ?? []) add(this.behaviours, 'behaviour', b.name, b, module.name);
      for (const w of module.writers ?? []) add(this.writers, 'writer', w.name, w, module.name);
      for (const j of module.jobs ?? []) add(this.jobs, 'job', j.name, j, module.name);
      for (const v of module.rights ?? []) {
        const parsed = parseRightName(v.right);
        if (!parsed || isRightAction(parsed.action)) throw new Error(`right verb "${v.right}" of area ${module.name} is not <module>[.<sub>]:<verb>`);
        add(this.verbs, 'right verb', v.right, v, module.name);
      }
      for (const table of module.serviceOnlyTables ?? []) this.serviceOnly.set(table, module.name);
      for (const route of module.choiceRoutes ?? []) {
        if (!CHOICE_ROUTE.test(route)) throw new Error(`choice route "${route}" of area ${module.name} is not "GET|POST /path"`);
        if (this.choiceRoutes.has(route)) throw new Error(`choice route "${route}" is declared twice (area ${module.name})`);
        this.choiceRoutes.set(route, module.name);
      }
      for (const [name, filter] of module.rowFilters ?? []) add(this.filters, 'row filter', name, filter, module.name);
      for (const [code, status] of Object.entries<number | undefined>(module.errors ?? {})) {
        if (!ERROR_CODE.test(code)) throw new Error(`error code "${code}" of area ${module.name} is not UPPER_CASE`);
        if (isErrorCode(code) || this.errorStatuses.has(code)) throw new Error(`error code ${code} of area ${module.name} is declared twice`);
        if (status === undefined || !Number.isInteger(status) || status < 400 || status > 599) throw new Error(`error code ${code} of area ${module.name} has no error status (${status})`);
        this.errorStatuses.set(code, status);
      }
    }
    for (const module of modules) {
      for (const grant of module.defaultGrants ?? []) {
        for (const right of grant.rights) {
          const parsed = parseRightName(right);
          if (!parsed) throw new Error(`default grant "${right}" of area ${module.name} is not a right name`);
          if (!isRightAction(parsed.action) && !this.verbs.has(right)) throw new Error(`default grant "${right}" of area ${module.name} names a verb no area declares`);
        }
      }
    }
    // Refuses a home item declared twice.
    this.homeItems();
    this.routeTable = mergePageRoutes([{ area: 'kernel', pages: KERNEL_PAGES }, ...modules.map((module) => ({ area: module.name, pages: module.pages ?? [] }))]);
    const single = <K extends 'sessions' | 'rightChecker' | 'passwords'>(key: K): AreaModule[K] => {
      const bringers = modules.filter((module) => module[key] !== undefined);
      if (bringers.length > 1) throw new Error(`${key} is contributed by more than one area: ${bringers.map((m) => m.name).join(', ')}`);
      return bringers[0]?.[key];
    };
    this.sessions = single('sessions');
    this.rightChecker = single('rightChecker');
    this.passwords = single('passwords');
    for (const b of this.behaviours.values()) {
      if (b.right && !this.verbs.has(b.right) && !isRightAction(parseRightName(b.right)?.action ?? '')) {
        throw new Error(`behaviour ${b.name} needs right ${b.right}, which no area declares in its rights`);
      }
    }
  }

  behaviour(name: string): BehaviourDefinition | undefined {
    return this.behaviours.get(name);
  }

  writer(name: string): WriterDefinition | undefined {
    return this.writers.get(name);
  }

  job(name: string): JobDefinition | undefined {
    return this.jobs.get(name);
  }

  /** Every job handler with the area that brings it, by name. */
  jobHandlers(): { name: string; area: string; scope: 'project' | 'system' }[] {
    return this.modules
      .flatMap((module) => (module.jobs ?? []).map((job) => ({ name: job.name, area: module.name, scope: job.scope ?? ('project' as const) })))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The row filters page definitions may name, by name. */
  rowFilters(): ReadonlyMap<string, RowFilter> {
    return this.filters;
  }

  /** The HTTP status of an area's error code (undefined for the platform's codes and unknown ones). */
  errorStatus(code: ErrorCode): number | undefined {
    return this.errorStatuses.get(code);
  }

  /** Every area's error codes with their status, by code. */
  areaErrors(): ReadonlyMap<string, number> {
    return this.errorStatuses;
  }

  /** The counts of open work on the home page, by their position, then in module-list order. */
  homeItems(): HomeWorkItem[] {
    const items = this.modules.flatMap((module) => module.homeItems ?? []);
    const kinds = new Set<string>();
    for (const item of items) {
      if (kinds.has(item.kind)) throw new Error(`home item "${item.kind}" is declared twice`);
      kinds.add(item.kind);
    }
    return items
      .map((item, i) => ({ item, i }))
      .sort((a, b) => (a.item.position ?? Infinity) - (b.item.position ?? Infinity) || a.i - b.i)
      .map(({ item }) => item);
  }

  /** Folders of areas kept outside the repository, each holding its `locales/` and `definitions/` trees. */
  contentRoots(): string[] {
    return this.modules.flatMap((module) => (module.contentRoot ? [module.contentRoot] : []));
  }

  rightVerbs(): RightVerbDefinition[] {
    return [...this.verbs.values()].sort((a, b) => a.right.localeCompare(b.right));
  }

  behaviourNames(): string[] {
    return [...this.behaviours.keys()].sort();
  }

  /** Every migration of every area (and of the event outbox), by name; a name used twice is refused. */
  migrations(): Record<string, Migration> {
    const all: Record<string, Migration> = { ...eventMigrations, ...kitMigrations };
    for (const module of this.modules) {
      for (const [name, migration] of Object.entries(module.migrations ?? {})) {
        if (Object.hasOwn(all, name)) throw new Error(`migration ${name} of area ${module.name} is declared twice`);
        all[name] = migration;
      }
    }
    return Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)));
  }

  /**
   * What a definition names that the areas must provide: every registered action its behaviours name exists and its declared
   * inputs fit the action's input schema, and one whose confirmation shows a preview
   * (`confirmPreview`) names an action that has one; its writer exists; a page over a table only a domain
   * service may write allows no add, edit or delete without a writer; a dropdown over a route names
   * one an area offers as a source of choices (`choiceRoutes`). Used at publish and when
   * shipped definitions are synced.
   */
  checkPage(page: PageDefinition): ValidationProblem[] {
    const problems: ValidationProblem[] = [];
    (page.behaviours ?? []).forEach((behaviour, i) => {
      const action = behaviour.action.startsWith('sql:') ? undefined : this.behaviours.get(behaviour.action);
      // The confirm dialog would ask the server for a preview the action cannot give.
      if (behaviour.confirmPreview === true && (behaviour.action.startsWith('sql:') || (action && !action.preview))) {
        problems.push({ path: `/behaviours/${i}/confirmPreview`, code: 'noPreview', message: `the action "${behaviour.action}" cannot preview what it will do` });
      }
      if (behaviour.action.startsWith('sql:')) return;
      if (!action) {
        problems.push({ path: `/behaviours/${i}/action`, code: 'unknownAction', message: `no area defines the action "${behaviour.action}"` });
        return;
      }
      problems.push(...checkDeclaredInputs(behaviour.inputs ?? [], action.inputs, `/behaviours/${i}/inputs`, behaviour.action));
    });
    page.fields.forEach((field, i) => {
      if (field.options?.type !== 'route') return;
      // Only a route an area offers as a source of choices: a definition never makes the browser call anything else.
      const route = `${field.options.method ?? 'GET'} ${field.options.path.split('?')[0]}`;
      if (!this.choiceRoutes.has(route)) problems.push({ path: `/fields/${i}/options/path`, code: 'unknownChoiceRoute', message: `no area offers "${route}" as a source of choices` });
    });
    if (page.writer !== undefined && !this.writers.has(page.writer)) {
      problems.push({ path: '/writer', code: 'unknownWriter', message: `no area defines the writer "${page.writer}"` });
    }
    const owner = this.serviceOnly.get(page.table.name);
    if (owner !== undefined && page.readOnly !== true && page.writer === undefined) {
      problems.push({
        path: '/readOnly',
        code: 'serviceOnlyTable',
        message: `only the ${owner} service writes "${page.table.name}": the page must be read-only or name a writer`,
      });
    }
    return problems;
  }

  /** Checks a behaviour's inputs against its action's schema before it runs; every problem at once. */
  checkInputs(action: BehaviourDefinition, inputs: Record<string, unknown>): void {
    if (!action.inputs || Value.Check(action.inputs, inputs)) return;
    const details: FieldError[] = [...Value.Errors(action.inputs, inputs)].map((error) => {
      const missing = (error.params as { requiredProperties?: string[] }).requiredProperties;
      const field = error.instancePath.replace(/^\//, '') || missing?.join(', ') || 'inputs';
      return { field, code: missing ? 'FIELD_REQUIRED' : 'VALIDATION_FAILED', message: error.message };
    });
    throw new AppError('VALIDATION_FAILED', {}, details);
  }
}

function checkDeclaredInputs(declared: BehaviourInputDefinition[], schema: TObject | undefined, at: string, action: string): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  const properties = (schema?.properties ?? {}) as Record<string, { type?: string | string[] }>;
  declared.forEach((input, j) => {
    const property = properties[input.name];
    if (!property) {
      problems.push({ path: `${at}/${j}/name`, code: 'unknownInput', message: `the action "${action}" takes no input "${input.name}"` });
      return;
    }
    const types = Array.isArray(property.type) ? property.type : property.type ? [property.type] : [];
    if (types.length && !types.some((t) => INPUT_JSON_TYPES[input.type].includes(t))) {
      problems.push({ path: `${at}/${j}/type`, code: 'inputType', message: `input "${input.name}" is ${input.type}, the action "${action}" takes ${types.join(' or ')}` });
    }
  });
  const names = new Set(declared.map((input) => input.name));
  for (const required of (schema?.required ?? []) as string[]) {
    if (!names.has(required)) problems.push({ path: at, code: 'missingInput', message: `the action "${action}" needs the input "${required}"` });
  }
  return problems;
}
