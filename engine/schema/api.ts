/**
 * Requests and answers of the generic engine API (`/api/generic/*`). Written once with TypeBox: the server's route schemas are these objects, the client
 * imports the derived types.
 *
 * Every row the server answers carries the page's field values by field name plus two reserved
 * keys: `_key` (the key field's value) and `_version` (the concurrency column as text, or null when
 * the page has none). An update or deletion sends both back; a changed `_version` is a stale update.
 */
import { Type, type Static } from 'typebox';
import { CODE_PATTERN, ScalarValueSchema, SortSchema, type PageDefinition, type RuleGroup, type ScalarValue } from './page-definition.schema.js';

/** The largest page of a selection: a selection is limited to 100 rows. */
export const MAX_PAGE_SIZE = 100;

const ModuleCode = Type.String({ pattern: CODE_PATTERN });
const FunctionCode = Type.String({ pattern: CODE_PATTERN });
/** The key of the page a request is for, the first properties of nearly every request. */
const PageKeyFields = { moduleCode: ModuleCode, functionCode: FunctionCode };

/**
 * A react-querybuilder rule group. The route schema checks only its outer shape (a cyclic schema
 * would be registered once per route); the condition compiler checks every rule, field and
 * operator and refuses what it does not know.
 */
export const ConditionsSchema = Type.Unsafe<RuleGroup>(
  Type.Object({ combinator: Type.String(), rules: Type.Array(Type.Unknown()), not: Type.Optional(Type.Boolean()) }),
);

export const RowKeySchema = Type.Union([Type.String({ maxLength: 200 }), Type.Number()]);
export type RowKey = Static<typeof RowKeySchema>;

export const RecordValuesSchema = Type.Record(Type.String(), ScalarValueSchema);
/** Values of one record by field name, as the form sends them. */
export type RecordValues = Static<typeof RecordValuesSchema>;

/**
 * A row as the server answers it: field values plus `_key` and `_version`. A list (selection, tab)
 * also answers `_labels`: for each field with a foreign dropdown, the label column of the row its
 * value names (a SKU's code for `sku_id`), so the list never shows a raw key.
 */
export type GenericRow = Record<string, unknown> & { _key: RowKey; _version: string | null; _labels?: Record<string, string> };

export const PageRefSchema = Type.Object(PageKeyFields);
export type PageRef = Static<typeof PageRefSchema>;

/** Page inputs for a list SQL's `:named` parameters (not the reserved session names). */
export const PageInputsSchema = Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }), ScalarValueSchema);

/** The filters and sort of a list: what the search panel and the grid's columns ask for. */
const ListFilterFields = {
  conditions: Type.Optional(ConditionsSchema),
  sort: Type.Optional(Type.Array(SortSchema, { maxItems: 10 })),
};
/** One page of a list's rows. */
const PagingFields = {
  page: Type.Integer({ minimum: 1 }),
  pageSize: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE }),
};
/** The `_version` of a row the client read (null when the page has no version field). */
const RowVersionSchema = Type.Union([Type.String({ maxLength: 100 }), Type.Null()]);

export const SelectionRequestSchema = Type.Object({
  ...PageKeyFields,
  ...ListFilterFields,
  ...PagingFields,
  inputs: Type.Optional(PageInputsSchema),
});
export type SelectionRequest = Static<typeof SelectionRequestSchema>;
export interface SelectionResponse {
  rows: GenericRow[];
  /** Matching rows: exact, or the planner's estimate when `totalEstimated` (very large lists). */
  total: number;
  totalEstimated?: boolean;
}

export const AddingRequestSchema = Type.Object({
  ...PageKeyFields,
  record: RecordValuesSchema,
});
export type AddingRequest = Static<typeof AddingRequestSchema>;
export interface AddingResponse {
  row: GenericRow;
}

export const UpdatingRequestSchema = Type.Object({
  ...PageKeyFields,
  key: RowKeySchema,
  /** The `_version` the client read; required when the page has a version field. */
  version: RowVersionSchema,
  /** Only the fields being changed need to be sent. */
  record: RecordValuesSchema,
});
export type UpdatingRequest = Static<typeof UpdatingRequestSchema>;
export type UpdatingResponse = AddingResponse;

export const DeletionRequestSchema = Type.Object({
  ...PageKeyFields,
  rows: Type.Array(Type.Object({ key: RowKeySchema, version: RowVersionSchema }), {
    minItems: 1,
    maxItems: MAX_PAGE_SIZE,
  }),
});
export type DeletionRequest = Static<typeof DeletionRequestSchema>;
export interface DeletionResponse {
  deleted: number;
}

/** `POST /api/generic/export`: the selection's filters and sort; answers an xlsx file (all matching rows). */
export const ExportRequestSchema = Type.Object({
  ...PageKeyFields,
  ...ListFilterFields,
  inputs: Type.Optional(PageInputsSchema),
  /** Columns to export, in order; default every displayable field. */
  fields: Type.Optional(Type.Array(Type.String(), { maxItems: 500 })),
});
export type ExportRequest = Static<typeof ExportRequestSchema>;

/**
 * `POST /api/generic/import` is multipart: text parts `moduleCode`, `functionCode`, `fieldMap`
 * (the code of one of the page's field maps) and one file part `file` (.xlsx or .csv). All rows are
 * added in one transaction or none; a refusal lists every row's problems in `details` with
 * `field` = `row <n>: <field>` and `params.row` = the row number in the file.
 */
export interface ImportResponse {
  inserted: number;
}

export const DropdownRequestSchema = Type.Object({
  ...PageKeyFields,
  field: Type.String({ maxLength: 63 }),
  /** Current values of the record, for SQL dropdowns that depend on trigger fields. */
  record: Type.Optional(RecordValuesSchema),
  /** Text typed into the dropdown; filters labels (contains, case-insensitive). */
  search: Type.Optional(Type.String({ maxLength: 200 })),
  /**
   * The value the user just picked: instead of the list, answer what that choice fills (the
   * field's `options.fill`), one option per filled field with `value` the field's name and `label`
   * the text to put there.
   */
  fillFrom: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Number(), Type.Boolean()])),
});
export type DropdownRequest = Static<typeof DropdownRequestSchema>;
export interface DropdownOption {
  value: string | number | boolean;
  /** Text to show; for static lists and code masters a text code the client translates (labelCode). */
  label?: string;
  labelCode?: string;
}
export interface DropdownResponse {
  options: DropdownOption[];
  /** More choices exist than the row cap (1000); narrow them with `search`. */
  truncated: boolean;
}

export const UomRequestSchema = Type.Object({
  /** Units of measure of one SKU (its packages); without it (and without skuId), every unit of measure in use. */
  skuCode: Type.Optional(Type.String({ maxLength: 100 })),
  /** The same by the SKU's key, as an order or ASN line stores it. */
  skuId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
});
export type UomRequest = Static<typeof UomRequestSchema>;
export type UomResponse = DropdownResponse;

export const BehaviourRequestSchema = Type.Object({
  ...PageKeyFields,
  behaviour: Type.String({ pattern: CODE_PATTERN }),
  /** `_key`s of the selected rows (as many as the behaviour's selection rule asks). */
  keys: Type.Array(RowKeySchema, { maxItems: MAX_PAGE_SIZE }),
  /** Extra inputs the behaviour's dialog collected. */
  inputs: Type.Optional(PageInputsSchema),
  /** Only say what the behaviour would do (its action's read-only preview); nothing runs. */
  preview: Type.Optional(Type.Boolean()),
});
export type BehaviourRequest = Static<typeof BehaviourRequestSchema>;
export interface BehaviourResponse {
  /** What the action answers (e.g. counts); shown as a message by the client when `messageCode` is set. */
  result: unknown;
  messageCode?: string;
  messageParams?: Record<string, string | number>;
  /** Pages the success message offers to open, each filtered to what the run made or touched. */
  links?: BehaviourLink[];
  /** Only on a preview: the run would be refused, and why (its text in the caller's language). */
  refusal?: BehaviourRefusal;
}

/** A link of a behaviour's success message: its text, and the page it opens filtered by field values. */
export interface BehaviourLink {
  labelCode: string;
  labelParams?: Record<string, string | number>;
  moduleCode: string;
  functionCode: string;
  filter: Record<string, ScalarValue>;
}

export interface BehaviourRefusal {
  code: string;
  message: string;
  params?: Record<string, string | number>;
}

export const TabRequestSchema = Type.Object({
  ...PageKeyFields,
  subPage: Type.String({ pattern: CODE_PATTERN }),
  /** `_key` of the header row. */
  parentKey: RowKeySchema,
  ...ListFilterFields,
  ...PagingFields,
});
export type TabRequest = Static<typeof TabRequestSchema>;
/** The child page's rows, plus which page that is so the client can render it. */
export interface TabResponse extends SelectionResponse {
  moduleCode: string;
  functionCode: string;
}

/** `GET /api/generic/module/view?moduleCode=&functionCode=`: the resolved, published definition. */
export const PageViewQuerySchema = PageRefSchema;
export interface PageViewResponse {
  /** The definition without `sqls`: configurator SQL runs only on the server and is not shown to operators. */
  definition: PageDefinition;
  /** Version of the stored definition the page resolved to. */
  version: number;
  /** True when the project's own published copy, false for the shipped default. */
  projectSpecific: boolean;
  /** The caller's rights on the page's module, so the client can hide what would be refused. */
  rights: { view: boolean; add: boolean; edit: boolean; delete: boolean };
  /**
   * The behaviours (by code) whose action needs a right of its own that the caller does not hold
   * (an area's verb such as `outbound.wave:release`); absent when there is none. The client shows
   * no button for them, since the server would refuse the run.
   */
  deniedBehaviours?: string[];
}

export type { PageDefinition, RuleGroup };
