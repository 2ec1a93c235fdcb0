import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatePageDefinitionValidator } from '../../../engine/schema/generate-validator.js';

describe('the generated page-definition validator', () => {
  it('is up to date with page-definition.schema.ts (run `npm run generate` after changing the schema)', () => {
    const file = path.resolve(import.meta.dirname, '../../../engine/schema/generated/page-definition.validate.js');
    expect(fs.readFileSync(file, 'utf8')).toBe(generatePageDefinitionValidator());
  });

  it('contains no code generation at run time', () => {
    const file = path.resolve(import.meta.dirname, '../../../engine/schema/generated/page-definition.validate.js');
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toMatch(/new Function|\beval\(|require\(/);
  });
});
