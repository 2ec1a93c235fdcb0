import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/common/languages.js';
import { lookupLocaleText } from '../../src/common/locale-tree.js';
import { loadLocale } from '../helpers/locales.js';
import {
  BEHAVIOUR_PROPERTIES,
  FIELD_MAP_PROPERTIES,
  FIELD_TYPE_LABELS,
  PAGE_PROPERTIES,
  QUERY_CONDITION_PROPERTIES,
  SQL_PROPERTIES,
  SUB_PAGE_PROPERTIES,
  fieldProperties,
} from '../../src/screens/designer/panels/specs.js';
import { FIELD_TYPES } from '../../engine/schema/index.js';

const SPECS = [PAGE_PROPERTIES, fieldProperties([]), BEHAVIOUR_PROPERTIES, SUB_PAGE_PROPERTIES, SQL_PROPERTIES, QUERY_CONDITION_PROPERTIES, FIELD_MAP_PROPERTIES].flat();

describe('designer labels', () => {
  it('names every property the designer edits in every language', () => {
    for (const language of LANGUAGES) {
      const missing = SPECS.map((spec) => `ui.designer.prop.${spec.key}`).filter((key) => lookupLocaleText(loadLocale(language), key) === undefined);
      expect(missing, language).toEqual([]);
    }
  });

  it('names every choice of a select, and every field type, in every language', () => {
    const selects = SPECS.filter((spec) => spec.kind === 'select');
    for (const spec of selects) expect(Object.keys(spec.optionLabels ?? {}).sort(), spec.key).toEqual((spec.options ?? []).map(String).sort());
    expect(Object.keys(FIELD_TYPE_LABELS).sort()).toEqual([...FIELD_TYPES].sort());
    const keys = selects.flatMap((spec) => Object.values(spec.optionLabels ?? {}));
    for (const language of LANGUAGES) {
      expect(keys.filter((key) => lookupLocaleText(loadLocale(language), key) === undefined), language).toEqual([]);
    }
    // the texts are translations, not the English words again
    expect(lookupLocaleText(loadLocale('jp'), 'ui.designer.value.type.decimal')).not.toBe(lookupLocaleText(loadLocale('en'), 'ui.designer.value.type.decimal'));
  });

  it('lets a configurator set the form layout: group and width of a field, columns of the page', () => {
    expect(fieldProperties([]).filter((spec) => ['group', 'width'].includes(spec.key)).map((spec) => spec.kind)).toEqual(['text', 'select']);
    expect(PAGE_PROPERTIES.find((spec) => spec.key === 'formColumns')?.options).toEqual([1, 2, 3]);
  });
});
