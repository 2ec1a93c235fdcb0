import type { PageDefinition, RuleGroup } from './page-definition.schema.js';
import type { ValidationProblem } from './validation-problem.js';

/**
 * The checks a JSON Schema cannot express: unique names, and every reference from one
 * part of the page to another (sort, SQL, dropdowns, calculations, behaviours, sub-pages, field
 * maps, query conditions) names something that exists. Reports every problem, never the first only.
 */
export function checkPageSemantics(page: PageDefinition): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  const report = (path: string, code: string, message: string) => problems.push({ path, code, message });

  const fieldNames = new Set<string>();
  page.fields.forEach((field, i) => {
    if (fieldNames.has(field.name)) report(`/fields/${i}/name`, 'duplicate', `field name "${field.name}" is used twice`);
    fieldNames.add(field.name);
  });
  const sqlNames = uniqueNames(page.sqls ?? [], (s) => s.name, '/sqls', 'name', report);
  uniqueNames(page.behaviours ?? [], (b) => b.code, '/behaviours', 'code', report);
  uniqueNames(page.subPages ?? [], (s) => s.code, '/subPages', 'code', report);
  uniqueNames(page.queryConditions ?? [], (q) => q.code, '/queryConditions', 'code', report);
  uniqueNames(page.fieldMaps ?? [], (m) => m.code, '/fieldMaps', 'code', report);

  const keyField = page.keyField ?? 'id';
  const needField = (path: string, name: string, what: string) => {
    if (!fieldNames.has(name)) report(path, 'unknownField', `${what} "${name}" is not a field of the page`);
  };
  const needSql = (path: string, name: string, what: string) => {
    if (!sqlNames.has(name)) report(path, 'unknownSql', `${what} "${name}" is not a named SQL of the page`);
  };

  if (page.listSql !== undefined) needSql('/listSql', page.listSql, 'list SQL');
  (page.defaultSort ?? []).forEach((sort, i) => needField(`/defaultSort/${i}/field`, sort.field, 'sort field'));

  page.fields.forEach((field, i) => {
    const at = `/fields/${i}`;
    if (field.length !== undefined && field.type !== 'string' && field.type !== 'text') {
      report(`${at}/length`, 'notApplicable', `length applies to string and text fields, not ${field.type}`);
    }
    if (field.decimal !== undefined && field.type !== 'decimal') {
      report(`${at}/decimal`, 'notApplicable', `decimal applies to decimal fields, not ${field.type}`);
    }
    if (field.min !== undefined && field.max !== undefined && field.min > field.max) {
      report(`${at}/min`, 'range', `min ${field.min} is above max ${field.max}`);
    }
    if (field.options?.type === 'sql') needSql(`${at}/options/sql`, field.options.sql, 'dropdown SQL');
    if (field.options?.type === 'foreign') {
      (field.options.filter ?? []).forEach((filter, j) => {
        if (!('field' in filter)) return;
        const path = `${at}/options/filter/${j}/field`;
        needField(path, filter.field, 'filter field');
        if (filter.field === field.name) report(path, 'selfReference', `the dropdown of "${field.name}" is filtered by its own value`);
        // The form reloads a dropdown when one of its trigger fields changes: without it the list would not follow.
        else if (!(field.triggerFields ?? []).includes(filter.field)) {
          report(path, 'notTrigger', `the dropdown of "${field.name}" follows field "${filter.field}", which must be one of its triggerFields`);
        }
      });
      const filled = new Set<string>();
      (field.options.fill ?? []).forEach((fill, j) => {
        const path = `${at}/options/fill/${j}/field`;
        needField(path, fill.field, 'filled field');
        if (fill.field === field.name) report(path, 'selfReference', `field "${field.name}" is filled from its own choice`);
        if (filled.has(fill.field)) report(path, 'duplicate', `field "${fill.field}" is filled twice`);
        filled.add(fill.field);
      });
    }
    if (field.options?.type === 'route') {
      (field.options.params ?? []).forEach((param, j) => {
        const path = `${at}/options/params/${j}/field`;
        needField(path, param.field, 'route parameter field');
        if (param.field === field.name) report(path, 'selfReference', `the dropdown of "${field.name}" is asked with its own value`);
        // The form reloads a dropdown when one of its trigger fields changes: without it the list would not follow.
        else if (!(field.triggerFields ?? []).includes(param.field)) {
          report(path, 'notTrigger', `the dropdown of "${field.name}" follows field "${param.field}", which must be one of its triggerFields`);
        }
      });
    }
    if (field.validationSql) needSql(`${at}/validationSql/sql`, field.validationSql.sql, 'validation SQL');
    field.calc?.params.forEach((param, j) => {
      needField(`${at}/calc/params/${j}`, param, 'calculation parameter');
      if (param === field.name) report(`${at}/calc/params/${j}`, 'selfReference', `field "${field.name}" is computed from itself`);
    });
    field.triggerFields?.forEach((trigger, j) => needField(`${at}/triggerFields/${j}`, trigger, 'trigger field'));
    if (field.condition) checkRuleFields(field.condition.when, `${at}/condition/when`, fieldNames, report);
    if (field.stored === false) {
      // A value handed to the writer only: nothing the engine reads or checks in the table may name it.
      if (page.writer === undefined) report(`${at}/stored`, 'notApplicable', `field "${field.name}" is not stored, which needs a page writer to take its value`);
      for (const flag of ['searchable', 'indexed', 'unique', 'foreign', 'calc'] as const) {
        if (field[flag] !== undefined && field[flag] !== false) report(`${at}/${flag}`, 'notApplicable', `${flag} does not apply to a field that is not stored`);
      }
    }
  });

  (page.behaviours ?? []).forEach((behaviour, i) => {
    const at = `/behaviours/${i}`;
    if (behaviour.action.startsWith('sql:')) needSql(`${at}/action`, behaviour.action.slice(4), 'behaviour SQL');
    if (behaviour.enabledBy) needField(`${at}/enabledBy/field`, behaviour.enabledBy.field, 'status field');
    if (behaviour.enabledBy && behaviour.selection === 'none') {
      report(`${at}/enabledBy`, 'notApplicable', 'a behaviour enabled by status needs selected rows (selection one or many)');
    }
    const inputs = behaviour.inputs ?? [];
    uniqueNames(inputs, (input) => input.name, `${at}/inputs`, 'name', report);
    inputs.forEach((input, j) => {
      if (input.length !== undefined && input.type !== 'text') report(`${at}/inputs/${j}/length`, 'notApplicable', 'length applies to text inputs only');
      const numeric = input.type === 'integer' || input.type === 'number';
      if ((input.min !== undefined || input.max !== undefined) && !numeric) report(`${at}/inputs/${j}/min`, 'notApplicable', 'min and max apply to integer and number inputs only');
      if (input.min !== undefined && input.max !== undefined && input.min > input.max) report(`${at}/inputs/${j}/max`, 'badRange', 'max is below min');
      if (input.choices && input.type !== 'text') report(`${at}/inputs/${j}/choices`, 'notApplicable', 'choices apply to text inputs only');
      if (input.choices) uniqueNames(input.choices, (choice) => choice.value, `${at}/inputs/${j}/choices`, 'value', report);
    });
  });

  (page.subPages ?? []).forEach((subPage, i) => {
    subPage.links.forEach((link, j) => {
      if (link.parentField !== keyField) needField(`/subPages/${i}/links/${j}/parentField`, link.parentField, 'link field');
    });
  });

  (page.queryConditions ?? []).forEach((condition, i) => {
    const searchable = new Set(page.fields.filter((f) => f.searchable === true).map((f) => f.name));
    checkRuleFields(condition.query, `/queryConditions/${i}/query`, searchable, report, 'searchable field');
  });

  (page.fieldMaps ?? []).forEach((map, i) => {
    const mapped = new Set<string>();
    map.columns.forEach((column, j) => {
      const at = `/fieldMaps/${i}/columns/${j}`;
      needField(`${at}/field`, column.field, 'mapped field');
      if ((column.header === undefined) === (column.index === undefined)) {
        report(at, 'headerOrIndex', 'a column is found either by header or by index, exactly one of them');
      }
      if (column.header !== undefined && map.headerRow === false) {
        report(`${at}/header`, 'notApplicable', 'a column found by header needs headerRow');
      }
      if (mapped.has(column.field)) report(`${at}/field`, 'duplicate', `field "${column.field}" is mapped twice`);
      mapped.add(column.field);
    });
  });

  return problems;
}

function uniqueNames<T>(
  items: T[],
  nameOf: (item: T) => string,
  base: string,
  property: string,
  report: (path: string, code: string, message: string) => void,
): Set<string> {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const name = nameOf(item);
    if (seen.has(name)) report(`${base}/${i}/${property}`, 'duplicate', `"${name}" is used twice in ${base.slice(1)}`);
    seen.add(name);
  });
  return seen;
}

function checkRuleFields(
  group: RuleGroup,
  path: string,
  allowed: Set<string>,
  report: (path: string, code: string, message: string) => void,
  what = 'field',
): void {
  group.rules.forEach((rule, i) => {
    if ('rules' in rule) {
      checkRuleFields(rule, `${path}/rules/${i}`, allowed, report, what);
    } else if (!allowed.has((rule).field)) {
      report(`${path}/rules/${i}/field`, 'unknownField', `rule field "${(rule).field}" is not a ${what} of the page`);
    }
  });
}
