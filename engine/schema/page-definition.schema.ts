/**
 * THE page-definition schema.
 * It is written once, with TypeBox, so that it is at the same time the JSON Schema the validator
 * runs and the source of every TypeScript type of a definition (`Static<>`); there is no
 * hand-written twin. engine/schema imports nothing of ours.
 *
 * Defaults of optional properties are documented on each property and in README.md; consumers
 * apply them with `?? default` (the helpers in `field-flags.ts`).
 */
import { Type, type Static } from 'typebox';
import { QUERY_OPERATORS } from './query-operators.js';

/** The schema version this code writes and reads; older documents are upgraded by `migrations/`. */
export const CURRENT_SCHEMA_VERSION = 2;

/** SQL identifiers (tables, columns, aliases): lower-case snake case, never quoted, never dotted. */
export const IDENTIFIER_PATTERN = '^[a-z_][a-z0-9_]{0,62}$';
/** Module, function, behaviour, sub-page, query-condition and field-map codes. */
export const CODE_PATTERN = '^[A-Za-z][A-Za-z0-9_-]{0,63}$';
/** A label: a locale key (`ui.masterdata.sku.title`) or a multilingual text code (`SKU_TITLE`); never literal text. */
export const TEXT_CODE_PATTERN = '^[A-Za-z][A-Za-z0-9_]*([.-][A-Za-z0-9_]+)*$';
/** A registered action (`masterdata.location.generate`) or a named SQL of the page (`sql:<name>`). */
export const ACTION_PATTERN = '^(sql:[a-z_][a-z0-9_]{0,62}|[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)+)$';

/**
 * A route a dropdown may take its choices from: an API path below /api (without /api), letters,
 * digits and `/`, optionally with fixed query parameters.
 */
export const CHOICE_ROUTE_PATTERN = '^/[A-Za-z][A-Za-z0-9_/-]{0,120}(\\?[A-Za-z0-9_]+=[A-Za-z0-9_.-]*(&[A-Za-z0-9_]+=[A-Za-z0-9_.-]*)*)?$';

const Identifier = (description: string) => Type.String({ pattern: IDENTIFIER_PATTERN, description });
const Code = (description: string) => Type.String({ pattern: CODE_PATTERN, description });
const TextCode = (description: string) => Type.String({ pattern: TEXT_CODE_PATTERN, maxLength: 200, description });

export const ScalarValueSchema = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);
export type ScalarValue = Static<typeof ScalarValueSchema>;

export const FIELD_TYPES = ['string', 'text', 'integer', 'decimal', 'boolean', 'date', 'datetime'] as const;
export const FieldTypeSchema = Type.Enum(FIELD_TYPES, { description: 'Value type; decides the input, the parsing and the SQL cast' });
export type FieldType = Static<typeof FieldTypeSchema>;

export const PAGE_STATUSES = ['draft', 'published', 'inactive'] as const;
export const PageStatusSchema = Type.Enum(PAGE_STATUSES, { description: 'Publish status' });
export type PageStatus = Static<typeof PageStatusSchema>;

export const PAGE_SCOPES = ['none', 'organization', 'project', 'warehouse'] as const;
export const PageScopeSchema = Type.Enum(PAGE_SCOPES, {
  description:
    'Which session scope column the table has: organization_id, project_id or warehouse_id; every query and write is limited to the session value',
});
export type PageScope = Static<typeof PageScopeSchema>;

export const RIGHT_ACTIONS = ['view', 'add', 'edit', 'delete'] as const;
export const RightActionSchema = Type.Enum(RIGHT_ACTIONS);
export type RightActionName = Static<typeof RightActionSchema>;

export const SortSchema = Type.Object(
  {
    field: Type.String({ description: 'A field name of the page' }),
    direction: Type.Enum(['asc', 'desc']),
  },
  { additionalProperties: false },
);
export type Sort = Static<typeof SortSchema>;

/** One rule of a react-querybuilder query (its JSON rule-group format). */
export const QueryRuleSchema = Type.Object(
  {
    id: Type.Optional(Type.String()),
    field: Type.String(),
    operator: Type.Enum(QUERY_OPERATORS),
    value: Type.Optional(Type.Unknown()),
    valueSource: Type.Optional(Type.Enum(['value'])),
    disabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type QueryRule = Static<typeof QueryRuleSchema>;

/**
 * A react-querybuilder rule group: AND/OR of rules and nested groups. It is recursive, so it lives
 * once in the `$defs` of the page schema and is used through `Type.Ref('RuleGroup')` (a second copy
 * of its `$id` in one document is ambiguous for the validator).
 */
const RuleGroupObject = Type.Object(
  {
    id: Type.Optional(Type.String()),
    combinator: Type.Enum(['and', 'or']),
    not: Type.Optional(Type.Boolean()),
    disabled: Type.Optional(Type.Boolean()),
    rules: Type.Array(Type.Union([QueryRuleSchema, Type.Ref('RuleGroup')])),
  },
  { additionalProperties: false },
);
/** The rule group on its own (for validating a condition outside a page). */
export const RuleGroupSchema = Type.Cyclic({ RuleGroup: RuleGroupObject }, 'RuleGroup');
export type RuleGroup = Static<typeof RuleGroupSchema>;
const RuleGroupRef = Type.Ref('RuleGroup');

/**
 * A condition on the rows a foreign dropdown offers: the column equals a fixed value (partners of
 * one type), or the current value of another field of the record (the lots of the chosen SKU; that
 * field belongs in `triggerFields` so the list reloads when it changes).
 */
export const ForeignFilterSchema = Type.Union([
  Type.Object(
    { column: Identifier('Column of the foreign table'), value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]) },
    { additionalProperties: false },
  ),
  Type.Object(
    { column: Identifier('Column of the foreign table'), field: Identifier('A field of this page; while it is empty the list is not narrowed by it') },
    { additionalProperties: false },
  ),
]);
export type ForeignFilter = Static<typeof ForeignFilterSchema>;

/** A column of the chosen row copied into a field of the form (a consignee's address onto the order). */
export const ForeignFillSchema = Type.Object(
  { column: Identifier('Column of the chosen row'), field: Identifier('A field of this page, filled when it is still empty') },
  { additionalProperties: false },
);
export type ForeignFill = Static<typeof ForeignFillSchema>;

/** Where a field's dropdown takes its choices from (the spec's "option type"). */
export const OptionsSchema = Type.Union([
  Type.Object(
    {
      type: Type.Literal('codeMaster'),
      codeType: Type.String({ minLength: 1, maxLength: 64, description: 'Code type in the code master' }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('foreign'),
      table: Identifier('Table the choices come from'),
      valueField: Identifier('Column stored in this field'),
      labelField: Type.Optional(Identifier('Column shown; default valueField')),
      descriptionField: Type.Optional(
        Identifier('Second column shown after the label ("CODE - Name"), searched with it; the list and exports show the label column only'),
      ),
      scope: Type.Optional(PageScopeSchema),
      filter: Type.Optional(
        Type.Array(ForeignFilterSchema, {
          minItems: 1,
          description: 'Only rows where every column equals its value, or the current value of a field of the record (once that field has one)',
        }),
      ),
      fill: Type.Optional(
        Type.Array(ForeignFillSchema, {
          minItems: 1,
          description: 'When the user picks a choice, each of these fields still empty in the form gets the column of the chosen row',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('sql'),
      sql: Identifier('Name of a named SQL of this page answering columns value and label'),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('route'),
      path: Type.String({
        pattern: CHOICE_ROUTE_PATTERN,
        maxLength: 200,
        description: 'An API path the application offers as a source of choices (under /api, e.g. /inventory/reasonCode?type=adjust), with fixed query parameters',
      }),
      method: Type.Optional(Type.Enum(['GET', 'POST'], { description: 'How the route is called; default GET (parameters in the query), POST sends them as the JSON body' })),
      params: Type.Optional(
        Type.Array(
          Type.Object(
            {
              name: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$', description: 'Parameter of the route' }),
              field: Identifier('A field of this page whose current value is sent; left out while the field is empty'),
            },
            { additionalProperties: false },
          ),
          { minItems: 1, description: 'Values of the record sent with the call (the chosen SKU for its units)' },
        ),
      ),
      valueField: Type.Optional(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,62}$', description: 'Property of an answered item stored in this field; default value' })),
      labelField: Type.Optional(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,62}$', description: 'Property of an answered item shown; default valueField' })),
      descriptionField: Type.Optional(
        Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,62}$', description: 'Second property shown after the label ("CODE - Description")' }),
      ),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('static'),
      items: Type.Array(
        Type.Object(
          { value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]), labelCode: TextCode('Label of the choice') },
          { additionalProperties: false },
        ),
        { minItems: 1 },
      ),
    },
    { additionalProperties: false },
  ),
]);
export type FieldOptions = Static<typeof OptionsSchema>;

export const CALC_TYPES = ['sum', 'difference', 'product', 'quotient', 'concat', 'copy'] as const;
export const CalcSchema = Type.Object(
  {
    type: Type.Enum(CALC_TYPES, {
      description: 'sum/difference/product/quotient of numeric fields (left to right), concat of text, copy of one field',
    }),
    params: Type.Array(Identifier('A field of this page'), { minItems: 1, description: 'The fields the value is computed from' }),
    separator: Type.Optional(Type.String({ maxLength: 10, description: 'concat only; default empty' })),
  },
  { additionalProperties: false },
);
export type FieldCalc = Static<typeof CalcSchema>;

export const FieldSchema = Type.Object(
  {
    name: Identifier('Column name in the table; also the key of the value in rows and records'),
    labelCode: TextCode('Label of the field'),
    type: FieldTypeSchema,
    length: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, description: 'Maximum characters (string, text)' })),
    decimal: Type.Optional(Type.Integer({ minimum: 0, maximum: 20, description: 'Maximum digits after the point (decimal)' })),
    min: Type.Optional(Type.Number({ description: 'Range: smallest allowed number' })),
    max: Type.Optional(Type.Number({ description: 'Range: largest allowed number' })),
    foreign: Type.Optional(
      Type.Object(
        { table: Identifier('Foreign table'), field: Identifier('Foreign column the value must exist in') },
        { additionalProperties: false, description: 'The value must exist in foreign table.field (checked on save)' },
      ),
    ),
    editable: Type.Optional(Type.Boolean({ description: 'Can be changed when updating; default true' })),
    searchable: Type.Optional(Type.Boolean({ description: 'Offered in the search panel and in query conditions; default false' })),
    indexed: Type.Optional(
      Type.Boolean({
        description:
          'A shipped definition: the start-up sync creates a btree index on the column, after the scope column when the table has it (for searching and sorting large tables); default false',
      }),
    ),
    displayable: Type.Optional(Type.Boolean({ description: 'Shown as a grid column and in the form; default true' })),
    mandatory: Type.Optional(Type.Boolean({ description: 'Required on add and update; default false' })),
    defaultValue: Type.Optional(ScalarValueSchema),
    sequence: Type.Optional(Type.Integer({ description: 'Order in grid and form; default the position in fields' })),
    group: Type.Optional(
      TextCode('Form layout: heading of the group (locale key or text code); fields of one group are shown together in a titled section'),
    ),
    width: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 3 }), Type.Literal('full')], {
        description: 'Form layout: columns the field spans, 1 to 3 (at most the form\'s columns) or full; default 1, full for text',
      }),
    ),
    condition: Type.Optional(
      Type.Object(
        {
          when: RuleGroupRef,
          effect: Type.Enum(['visible', 'mandatory', 'readonly'], {
            description: 'visible: the field exists only while `when` holds; mandatory: required while it holds; readonly: cannot be changed while it holds',
          }),
        },
        { additionalProperties: false, description: 'A rule over the record (other fields) that changes this field' },
      ),
    ),
    validationSql: Type.Optional(
      Type.Object(
        {
          sql: Identifier('Named SQL of this page; the value is valid when it answers at least one row'),
          messageCode: Type.Optional(TextCode('Message when invalid; default errors.FIELD_VALIDATION_SQL')),
        },
        { additionalProperties: false },
      ),
    ),
    hyperlink: Type.Optional(
      Type.Object(
        {
          moduleCode: Code('Module of the page opened'),
          functionCode: Code('Function of the page opened'),
          field: Type.Optional(Identifier('Field of the opened page filtered by this value; default the same name')),
        },
        { additionalProperties: false },
      ),
    ),
    unique: Type.Optional(Type.Boolean({ description: 'Value unique within the scope; default false' })),
    stored: Type.Optional(
      Type.Boolean({
        description: 'false: not a column; the value is checked by the field rules and handed to the page writer only, never read or written by the engine (e.g. a new password); default true',
      }),
    ),
    format: Type.Optional(Type.String({ maxLength: 64, description: 'Data format for display, e.g. YYYY-MM-DD or 0.00; password: a masked input' })),
    options: Type.Optional(OptionsSchema),
    calc: Type.Optional(CalcSchema),
    triggerFields: Type.Optional(
      Type.Array(Identifier('A field of this page'), {
        description: 'When one of these fields changes, this field is recomputed (calc) or its dropdown reloaded',
      }),
    ),
  },
  { additionalProperties: false },
);

export const BEHAVIOUR_INPUT_TYPES = ['text', 'integer', 'number', 'date', 'boolean'] as const;
/** One value a behaviour asks for before it runs (a dialog field); checked on the server with the field rules. */
export const BehaviourInputSchema = Type.Object(
  {
    name: Type.String({ pattern: CODE_PATTERN, description: 'Key of the value in the inputs of /api/generic/behavior; unique within the behaviour' }),
    labelCode: TextCode('Label of the input'),
    type: Type.Enum(BEHAVIOUR_INPUT_TYPES, { description: 'text, integer, number (decimal, as text), date (YYYY-MM-DD) or boolean' }),
    mandatory: Type.Optional(Type.Boolean({ description: 'Required; default false' })),
    default: Type.Optional(ScalarValueSchema),
    length: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, description: 'Maximum characters (text)' })),
    min: Type.Optional(Type.Number({ description: 'Range: smallest allowed number' })),
    max: Type.Optional(Type.Number({ description: 'Range: largest allowed number' })),
    choices: Type.Optional(
      Type.Array(
        Type.Object(
          {
            value: Type.String({ minLength: 1, maxLength: 100, description: 'The value handed to the action' }),
            labelCode: TextCode('What the user reads for this choice'),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, description: 'Text inputs: the dialog offers these values only (a dropdown), and the server refuses any other' },
      ),
    ),
  },
  { additionalProperties: false },
);
export type BehaviourInputDefinition = Static<typeof BehaviourInputSchema>;

export const SELECTION_RULES = ['none', 'one', 'many'] as const;
export const BehaviourSchema = Type.Object(
  {
    code: Code('Unique within the page; what /api/generic/behavior names'),
    action: Type.String({ pattern: ACTION_PATTERN, description: 'A registered action or sql:<named SQL of this page>' }),
    labelCode: TextCode('Button label'),
    confirm: Type.Optional(Type.Boolean({ description: 'Ask before running; default false' })),
    confirmTextCode: Type.Optional(TextCode('Confirm text; default ui.engine.confirmRun')),
    confirmPreview: Type.Optional(
      Type.Boolean({ description: "With confirm: the dialog first shows what the action will do, computed by the action's preview on the server; default false" }),
    ),
    enabledBy: Type.Optional(
      Type.Object(
        {
          field: Identifier('Status field of the page'),
          values: Type.Array(ScalarValueSchema, { minItems: 1 }),
        },
        { additionalProperties: false, description: 'Enabled only when every selected row has one of these values' },
      ),
    ),
    selection: Type.Enum(SELECTION_RULES, { description: 'How many selected rows the behaviour needs' }),
    right: RightActionSchema,
    sequence: Type.Optional(Type.Integer()),
    inputs: Type.Optional(
      Type.Array(BehaviourInputSchema, { description: 'Values asked for in a dialog before running, handed to the action as inputs' }),
    ),
  },
  { additionalProperties: false },
);

export const SubPageSchema = Type.Object(
  {
    code: Code('Unique within the page; what /api/generic/tab names'),
    titleCode: TextCode('Tab title'),
    moduleCode: Code('Module of the child page'),
    functionCode: Code('Function of the child page'),
    links: Type.Array(
      Type.Object(
        { parentField: Identifier('Field (or key) of this page'), childField: Identifier('Field of the child page') },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    sequence: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);

export const NamedSqlSchema = Type.Object(
  {
    name: Identifier('Unique within the page'),
    text: Type.String({ minLength: 1, maxLength: 20000, description: 'One statement with :named parameters' }),
    mode: Type.Optional(
      Type.Enum(['read', 'write'], {
        description: 'read (default) runs in a read-only transaction; write only for sql: behaviours',
      }),
    ),
  },
  { additionalProperties: false },
);

export const QueryConditionSchema = Type.Object(
  {
    code: Code('Unique within the page'),
    titleCode: TextCode('Name shown in the search panel'),
    query: RuleGroupRef,
  },
  { additionalProperties: false },
);

export const FieldMapSchema = Type.Object(
  {
    code: Code('Unique within the page; what an import names'),
    titleCode: TextCode('Name shown in the import dialog'),
    headerRow: Type.Optional(Type.Boolean({ description: 'The first row holds column headers; default true' })),
    startRow: Type.Optional(Type.Integer({ minimum: 1, description: 'First data row (1-based); default 2 with header, 1 without' })),
    delimiter: Type.Optional(Type.String({ minLength: 1, maxLength: 1, description: 'CSV delimiter; default ,' })),
    columns: Type.Array(
      Type.Object(
        {
          header: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Column found by header text' })),
          index: Type.Optional(Type.Integer({ minimum: 1, description: 'Column found by position (1-based)' })),
          field: Identifier('Field of the page the column fills'),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
  },
  { additionalProperties: false },
);

const LANGUAGE_TEXTS = Type.Object(
  {
    en: Type.String(),
    zh: Type.Optional(Type.String()),
    zh_tw: Type.Optional(Type.String()),
    kor: Type.Optional(Type.String()),
    th: Type.Optional(Type.String()),
    jp: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const PageDefinitionObject = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    schemaVersion: Type.Literal(CURRENT_SCHEMA_VERSION),
    moduleCode: Code('Module; rights are <moduleCode>:view|add|edit|delete'),
    functionCode: Code('Function (page) within the module'),
    titleCode: TextCode('Page title'),
    helpCode: Type.Optional(TextCode('A line under the title saying what the page is for and what it edits')),
    genericName: Type.Optional(Type.String({ maxLength: 200, description: 'Internal name shown to configurators' })),
    status: PageStatusSchema,
    startup: Type.Optional(Type.Boolean({ description: 'The page the module opens with; one per module; default false' })),
    paging: Type.Optional(Type.Boolean({ description: 'Paged grid; default true' })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Rows per page; at most 100; default 20' })),
    formColumns: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 3, description: 'Columns of the add/edit form on a wide screen; default 2; always 1 on a phone-sized screen' }),
    ),
    table: Type.Object(
      {
        name: Identifier('Table read and written'),
        alias: Type.Optional(Identifier('Alias in generated SQL; default t')),
      },
      { additionalProperties: false },
    ),
    listSql: Type.Optional(
      Identifier('Named SQL that lists the rows instead of the table (wrapped as a subquery; read-only)'),
    ),
    scope: PageScopeSchema,
    keyField: Type.Optional(Identifier('Key column; default id')),
    versionField: Type.Optional(
      Type.Union([Identifier('Concurrency column compared on update and delete; default updated_at'), Type.Null()]),
    ),
    readOnly: Type.Optional(Type.Boolean({ description: 'No adding, updating, deletion or import; default false' })),
    attachments: Type.Optional(
      Type.Boolean({ description: 'Records of the page carry file attachments (at most 500M in all per record); default false' }),
    ),
    rowFilter: Type.Optional(
      Type.String({
        pattern: '^[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)+$',
        description: 'A row filter the application defines in code (e.g. access.grantedProjects), applied to every read of the page',
      }),
    ),
    writer: Type.Optional(
      Type.String({
        pattern: '^[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)+$',
        description: 'A writer an application module defines (e.g. user.account): its domain rules run inside every add, update, delete and import of the page',
      }),
    ),
    defaultSort: Type.Optional(Type.Array(SortSchema)),
    fields: Type.Array(FieldSchema, { minItems: 1 }),
    behaviours: Type.Optional(Type.Array(BehaviourSchema)),
    subPages: Type.Optional(Type.Array(SubPageSchema)),
    sqls: Type.Optional(Type.Array(NamedSqlSchema)),
    queryConditions: Type.Optional(Type.Array(QueryConditionSchema)),
    fieldMaps: Type.Optional(Type.Array(FieldMapSchema)),
    texts: Type.Optional(
      Type.Record(Type.String({ pattern: TEXT_CODE_PATTERN }), LANGUAGE_TEXTS, {
        description: 'Multilingual texts of the page by text code; labels that are not locale keys resolve here',
      }),
    ),
  },
  { additionalProperties: false },
);

/** THE schema: the page object with the recursive rule group in its `$defs`. */
export const PageDefinitionSchema = Type.Cyclic({ RuleGroup: RuleGroupObject, PageDefinition: PageDefinitionObject }, 'PageDefinition');

/** A page definition as stored and served. */
export type PageDefinition = Static<typeof PageDefinitionSchema>;
// The parts are typed from the whole, where the rule-group references are resolved.
export type FieldDefinition = PageDefinition['fields'][number];
export type BehaviourDefinition = NonNullable<PageDefinition['behaviours']>[number];
export type SubPageDefinition = NonNullable<PageDefinition['subPages']>[number];
export type NamedSql = NonNullable<PageDefinition['sqls']>[number];
export type QueryConditionDefinition = NonNullable<PageDefinition['queryConditions']>[number];
export type FieldMapDefinition = NonNullable<PageDefinition['fieldMaps']>[number];
export type MultilingualText = Static<typeof LANGUAGE_TEXTS>;
