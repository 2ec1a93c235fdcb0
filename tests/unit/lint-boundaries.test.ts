import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The arrows of DESIGN.md section 2 are lint rules (eslint.config.js): a probe file placed in a
 * folder is linted as if it were there. The probes are not in the TypeScript project, so they are
 * linted without type information; only the import rule is looked at.
 */
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({
    cwd: ROOT,
    overrideConfig: [{ files: ['**/probe.ts', '**/probe.tsx'], ...tseslint.configs.disableTypeChecked }],
  });
});

async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file), warnIgnored: true });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.fatal).map((m) => m.message);
}

describe('import boundaries', () => {
  it.each([
    ['designer/probe.ts', "export { api } from '../src/app/api/client';", 'src/app/public'],
    ['designer/panels/probe.ts', "export { useEngineHostServices } from '../../src/app/engine-services';", 'src/app/public'],
    ['designer/probe.ts', "export { startServer } from '../src/server/start';", 'never src/server'],
    ['designer/probe.ts', "export { PageView } from '../engine/client/PageView';", 'public entries'],
    ['engine/client/probe.ts', "export { PAGE_ROUTES } from '../../src/app/routes';", 'must not import src/'],
    ['engine/client/probe.ts', "export * from '../server/index.js';", 'do not import each other'],
    ['engine/server/probe.ts', "export { useState } from 'react';", 'never imports React'],
    ['engine/server/probe.ts', "export { PageView } from '../client/index.js';", 'do not import each other'],
    ['engine/schema/probe.ts', "export * from '../../designer/index';", 'must not import'],
    ['engine/schema/probe.ts', "export * from '../client/index.js';", 'imports nothing of ours'],
    ['src/screens/home/probe.ts', "export { findPageRoute } from '../../app/routes';", 'src/app/public'],
    ['src/screens/probe.ts', "export * from '../server/start';", 'never imports src/server'],
    ['src/app/shell/probe.ts', "export * from '../../server/config';", 'never imports src/server'],
    ['src/app/probe.ts', "export * from '../../designer/PageEditor';", 'designer/index'],
    ['src/server/probe.ts', "export * from '../app/public';", 'never imports src/app'],
    ['src/server/modules/probe.ts', "export * from '../../../designer/index';", 'never imports the designer'],
    ['src/server/probe.ts', "export * from '../../engine/client/index.js';", "engine's renderer"],
    ['src/server/modules/generic/probe.ts', "export { createElement } from 'react';", 'never imports React'],
  ])('refuses in %s: %s', async (file, code, reason) => {
    const messages = await refusals(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(reason);
  });

  it.each([
    ['designer/probe.ts', "export { api, ApiError } from '../src/app/public';"],
    ['designer/panels/probe.ts', "export { PageView } from '../../engine/client/index';\nexport { validatePageDefinition } from '../../engine/schema/index.js';"],
    ['designer/probe.ts', "export type { SelectionRequest } from '../engine/schema/api.js';\nexport * from '../src/common/designer/stable-json';"],
    ['engine/client/probe.ts', "export * from '../schema/index.js';"],
    ['engine/server/probe.ts', "export * from '../schema/api.js';"],
    ['src/screens/auth/probe.ts', "export { api } from '../../app/public';\nexport * from '../../common/page-routes';"],
    ['src/app/shell/probe.ts', "export { Designer } from '../../../designer/index';\nexport * from '../../../engine/client/host/popups';"],
    // The server's own designer area is not the designer.
    ['src/server/modules/generic/probe.ts', "export * from '../designer/definition-events.js';\nexport * from '../../../common/page-routes.js';"],
    ['src/server/probe.ts', "export * from './app.js';\nexport * from '../../engine/server/index.js';"],
  ])('accepts in %s: %s', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});
