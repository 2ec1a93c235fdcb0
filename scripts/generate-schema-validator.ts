/**
 * Writes the page-definition validator as plain code (ajv standalone), so that neither the browser
 * nor the server compiles it at run time: compiling uses `new Function`, which the app's
 * Content-Security-Policy forbids. Run `npm run generate` after changing
 * engine/schema/page-definition.schema.ts; a unit test fails while the file is out of date.
 */
import fs from 'node:fs';
import path from 'node:path';
import { generatePageDefinitionValidator } from '../engine/schema/generate-validator.js';

const target = path.resolve(import.meta.dirname, '../engine/schema/generated/page-definition.validate.js');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, generatePageDefinitionValidator());
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
