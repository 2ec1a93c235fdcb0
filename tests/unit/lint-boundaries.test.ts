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
    // src/server/app.ts stands for a kernel file that is not in a kernel folder.
    overrideConfig: [{ files: ['**/probe.ts', '**/probe.tsx', 'src/server/app.ts'], ...tseslint.configs.disableTypeChecked }],
  });
});

async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file), warnIgnored: true });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'local/import-boundaries' || m.fatal).map((m) => m.message);
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
    // The server's kernel imports no area, nor the composition root, however the path is written.
    ['src/server/db/probe.ts', "export { MODULES } from '../modules/index.js';", 'kernel imports no area'],
    ['src/server/db/seed/probe.ts', "import { loadInboundDemo } from '../../modules/inbound/inbound.demo.js';\nexport { loadInboundDemo };", 'kernel imports no area'],
    ['src/server/http/probe.ts', "import type { SessionRow } from '../modules/auth/session.repository.js';\nexport type { SessionRow };", 'kernel imports no area'],
    ['src/server/definitions/probe.ts', "export * from '../../server/modules/access/row-filters.js';", 'kernel imports no area'],
    ['src/server/area-kit/probe.ts', "export { startServer } from '../start.js';", 'kernel imports no area'],
    ['src/server/app.ts', "export { syncRightVerbs } from './modules/area-sync.js';", 'kernel imports no area'],
    ['src/server/events/probe.ts', "export const load = () => import('../modules/job/job.module.js');", 'kernel imports no area'],
    // Paths that climb to the repository root and down again land where they land.
    ['src/app/shell/probe.ts', "export * from '../../../src/server/config';", 'never imports src/server'],
    ['src/screens/home/probe.ts', "export * from '../../../src/server/start.js';", 'never imports src/server'],
    ['src/screens/home/probe.ts', "export * from '../../../src/app/routes';", 'src/app/public'],
    ['designer/probe.ts', "export * from '../src/../src/server/start';", 'never src/server'],
    // A dynamic import() crosses a boundary as much as a static one.
    ['src/app/probe.ts', "export const load = () => import('../server/start');", 'never imports src/server'],
    ['src/screens/probe.ts', "export const load = () => import(`../app/routes`);", 'src/app/public'],
    ['engine/client/probe.ts', "export const load = () => import('../server/index.js');", 'do not import each other'],
    ['designer/probe.ts', "export const load = () => import('../src/server/app.js');", 'never src/server'],
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
    // The composition root and the areas may import the areas; areas build on the kernel.
    ['src/server/probe.ts', "export * from './modules/index.js';\nexport const load = () => import('./modules/job/job.module.js');"],
    ['src/server/modules/inbound/probe.ts', "export * from '../../db/transaction.js';\nexport * from '../masterdata/masterdata.demo.js';\nexport * from '../../area-kit/area.js';"],
    ['src/server/db/seed/probe.ts', "export * from '../../area-kit/area.js';\nexport * from '../transaction.js';"],
    ['src/app/probe.ts', "export const load = () => import('../screens/home/HomeScreen');"],
  ])('accepts in %s: %s', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});
