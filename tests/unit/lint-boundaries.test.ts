import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The import directions of docs/architecture.md are lint rules (eslint.config.js, scripts/eslint/import-boundaries.mjs): a probe file placed in a
 * folder is linted as if it were there. The probes are not in the TypeScript project, so they are
 * linted without type information; only the import rule is looked at.
 */
let eslint: ESLint;

beforeAll(async () => {
  eslint = new ESLint({
    cwd: ROOT,
    // src/server/app.ts stands for a kernel file that is not in a kernel folder.
    overrideConfig: [{ files: ['**/probe.ts', '**/probe.tsx', 'src/server/app.ts'], ...tseslint.configs.disableTypeChecked }],
  });
  // The first lint loads the configuration and its plugins: done here, so no single case pays for it.
  await eslint.lintText('export {};', { filePath: path.join(ROOT, 'src/probe.ts'), warnIgnored: true });
}, 60_000);

async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file), warnIgnored: true });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'local/import-boundaries' || m.fatal).map((m) => m.message);
}

describe('import boundaries', () => {
  it.each([
    ['src/screens/designer/probe.ts', "export { api } from '../../app/api/client';", 'src/app/public'],
    ['src/screens/designer/panels/probe.ts', "export { useEngineHostServices } from '../../../app/engine-services';", 'src/app/public'],
    ['src/screens/designer/probe.ts', "export { startServer } from '../../server/start';", 'never src/server'],
    ['src/screens/designer/probe.ts', "export { PageView } from '../../../engine/client/PageView';", 'public entries'],
    ['engine/client/probe.ts', "export { PAGE_ROUTES } from '../../src/app/routes';", 'must not import src/'],
    ['engine/client/probe.ts', "export * from '../server/index.js';", 'do not import each other'],
    ['engine/server/probe.ts', "export { useState } from 'react';", 'never imports React'],
    ['engine/server/probe.ts', "export { PageView } from '../client/index.js';", 'do not import each other'],
    ['engine/schema/probe.ts', "export * from '../../src/screens/designer/index';", 'must not import'],
    ['engine/schema/probe.ts', "export * from '../client/index.js';", 'imports nothing of ours'],
    ['src/screens/home/probe.ts', "export { findPageRoute } from '../../app/routes';", 'src/app/public'],
    ['src/screens/probe.ts', "export * from '../server/start';", 'never imports src/server'],
    // The designer is a screen folder only the shell opens; it reaches no other screen.
    ['src/screens/inbound/probe.ts', "export * from '../designer/index';", 'only the shell opens the designer'],
    ['src/screens/designer/probe.ts', "export * from '../inbound/ReceiveScreen';", 'never src/server nor another screen'],
    ['src/app/shell/probe.ts', "export * from '../../server/config';", 'never imports src/server'],
    ['src/app/probe.ts', "export * from '../screens/designer/PageEditor';", 'src/screens/designer/index'],
    ['src/server/probe.ts', "export * from '../app/public';", 'never imports src/app'],
    ['src/server/modules/probe.ts', "export * from '../../screens/designer/index';", 'never imports the designer'],
    ['src/server/probe.ts', "export * from '../../engine/client/index.js';", "engine's renderer"],
    ['src/server/modules/generic/probe.ts', "export { createElement } from 'react';", 'never imports React'],
    // The server's kernel imports no area, nor the composition root, however the path is written.
    ['src/server/db/probe.ts', "export { MODULES } from '../modules/index.js';", 'kernel imports no area'],
    ['src/server/install/probe.ts', "import { loadInboundDemo } from '../modules/inbound/inbound.demo.js';\nexport { loadInboundDemo };", 'kernel imports no area'],
    ['src/server/http/probe.ts', "import type { SessionRow } from '../modules/identity/auth/session.repository.js';\nexport type { SessionRow };", 'kernel imports no area'],
    ['src/server/definitions/probe.ts', "export * from '../../server/modules/identity/access/row-filters.js';", 'kernel imports no area'],
    ['src/server/area-kit/probe.ts', "export { startServer } from '../start.js';", 'kernel imports no area'],
    ['src/server/app.ts', "export { syncRightVerbs } from './modules/area-sync.js';", 'kernel imports no area'],
    ['src/server/events/probe.ts', "export const load = () => import('../modules/job/job.module.js');", 'kernel imports no area'],
    // Paths that climb to the repository root and down again land where they land.
    ['src/app/shell/probe.ts', "export * from '../../../src/server/config';", 'never imports src/server'],
    ['src/screens/home/probe.ts', "export * from '../../../src/server/start.js';", 'never imports src/server'],
    ['src/screens/home/probe.ts', "export * from '../../../src/app/routes';", 'src/app/public'],
    ['src/screens/designer/probe.ts', "export * from '../../../src/../src/server/start';", 'never src/server'],
    // A dynamic import() crosses a boundary as much as a static one.
    ['src/app/probe.ts', "export const load = () => import('../server/start');", 'never imports src/server'],
    ['src/screens/probe.ts', "export const load = () => import(`../app/routes`);", 'src/app/public'],
    ['engine/client/probe.ts', "export const load = () => import('../server/index.js');", 'do not import each other'],
    ['src/screens/designer/probe.ts', "export const load = () => import('../../server/app.js');", 'never src/server'],
    // An area imports another area only through the other's public entry, modules/<area>/index.ts.
    ['src/server/modules/inbound/probe.ts', "import { findSku } from '../masterdata/masterdata.repository.js';\nexport { findSku };", 'only through its public entry src/server/modules/masterdata/index.ts'],
    ['src/server/modules/inbound/probe.ts', "export * from '../masterdata/masterdata.demo.js';", 'the inbound area imports the masterdata area only through'],
    ['src/server/modules/outbound/probe.ts', "export { moveStock } from '../inventory/inventory.service.js';", 'src/server/modules/inventory/index.ts'],
    ['src/server/modules/outbound/probe.ts', "import type { SkuTable } from '../masterdata/masterdata.tables.js';\nexport type { SkuTable };", 'src/server/modules/masterdata/index.ts'],
    ['src/server/modules/job/probe.ts', "export const load = () => import('../download/download.service.js');", 'src/server/modules/download/index.ts'],
    ['src/server/modules/support/probe.ts', "export const load = () => import(`../attachment/attachment.service.js`);", 'src/server/modules/attachment/index.ts'],
    // However the path is written, and from however deep a file of the area.
    ['src/server/modules/inbound/migrations/probe.ts', "export * from '../../masterdata/migrations/0020_masterdata.js';", 'src/server/modules/masterdata/index.ts'],
    ['src/server/modules/generic/probe.ts', "export * from '../../../../src/server/modules/inbound/inbound.service.js';", 'src/server/modules/inbound/index.ts'],
    ['src/server/modules/home/probe.ts', "export * from '../outbound/../inventory/inventory.repository';", 'src/server/modules/inventory/index.ts'],
    // An area's index of a sub-folder is not the area's entry.
    ['src/server/modules/outbound/probe.ts', "export * from '../inventory/migrations/index.js';", 'src/server/modules/inventory/index.ts'],
    // access, auth, user and role are one area, identity; the e-mail and SMS outbox is an area of its own.
    ['src/server/modules/outbound/probe.ts', "export { hasRight } from '../access/rights.js';", 'the outbound area imports the identity area only through its public entry src/server/modules/identity/index.ts'],
    ['src/server/modules/support/probe.ts', "export * from '../auth/auth.sessions.js';", 'src/server/modules/identity/index.ts'],
    ['src/server/modules/job/probe.ts', "export * from '../identity/user/user.service.js';", 'src/server/modules/identity/index.ts'],
    ['src/server/modules/identity/auth/probe.ts', "export * from '../../outbox/outbox.service.js';", 'the identity area imports the outbox area only through its public entry src/server/modules/outbox/index.ts'],
    ['src/server/modules/inbound/probe.ts', "export * from '../notification/notification.service.js';", 'src/server/modules/notification/index.ts'],
    ['src/server/modules/access/probe.ts', "export * from '../notification/notification.service.js';", 'the identity area imports the notification area only through'],
    ['src/server/modules/notification/probe.ts', "export * from '../identity/user/user.repository.js';", 'the notification area imports the identity area only through'],
    ['src/server/modules/outbox/probe.ts', "export * from '../notification/notification.service.js';", 'the outbox area imports the notification area only through'],
    ['src/server/modules/notification/probe.ts', "export * from '../outbox/outbox.repository.js';", 'src/server/modules/outbox/index.ts'],
  ])('refuses in %s: %s', async (file, code, reason) => {
    const messages = await refusals(file, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(reason);
  });

  it.each([
    ['src/screens/designer/probe.ts', "export { api, ApiError } from '../../app/public';"],
    ['src/screens/designer/panels/probe.ts', "export { PageView } from '../../../../engine/client/index';\nexport { validatePageDefinition } from '../../../../engine/schema/index.js';\nexport * from '../monaco/lazy';"],
    ['src/screens/designer/probe.ts', "export type { SelectionRequest } from '../../../engine/schema/api.js';\nexport * from '../../common/designer/stable-json';"],
    ['engine/client/probe.ts', "export * from '../schema/index.js';"],
    ['engine/server/probe.ts', "export * from '../schema/api.js';"],
    ['src/screens/identity/probe.ts', "export { api } from '../../app/public';\nexport * from '../../common/page-routes';"],
    ['src/app/shell/probe.ts', "export { Designer } from '../../screens/designer/index';\nexport * from '../../../engine/client/host/popups';"],
    // The server's own designer area is not the designer.
    ['src/server/modules/generic/probe.ts', "export * from '../designer/index.js';\nexport * from '../../../common/page-routes.js';"],
    ['src/server/probe.ts', "export * from './app.js';\nexport * from '../../engine/server/index.js';"],
    // The composition root and the areas may import the areas; areas build on the kernel.
    ['src/server/probe.ts', "export * from './modules/index.js';\nexport const load = () => import('./modules/job/job.module.js');"],
    ['src/server/modules/inbound/probe.ts', "export * from '../../db/transaction.js';\nexport * from '../masterdata/index.js';\nexport * from '../../area-kit/area.js';"],
    // Another area through its public entry; the files every area shares; anything within the area.
    ['src/server/modules/outbound/probe.ts', "export * from '../inventory/index.js';\nexport const load = () => import('../masterdata/index.js');\nexport * from '../area.js';\nexport * from '../area-registry.js';"],
    ['src/server/modules/outbound/wave/probe.ts', "export * from '../../inventory/index';\nexport * from '../outbound.repository.js';\nexport * from '../../outbound/migrations/0120_outbound.js';"],
    ['src/server/modules/inbound/probe.ts', "export * from '../identity/index.js';\nexport * from '../notification/index.js';\nexport * from './inbound.repository.js';"],
    // Within the identity area, whatever folder a file is in today; identity sends its codes through the outbox's entry.
    ['src/server/modules/access/probe.ts', "export * from '../auth/auth.sessions.js';\nexport * from '../role/role.repository.js';\nexport * from '../identity/index.js';"],
    ['src/server/modules/user/probe.ts', "export * from '../access/rights.js';\nexport * from '../identity/auth/tokens.js';"],
    ['src/server/modules/identity/user/probe.ts', "export * from '../access/rights.js';\nexport * from '../../auth/password.js';"],
    ['src/server/modules/identity/auth/probe.ts', "export { createMessageOutbox } from '../../outbox/index.js';\nexport type { MessageOutbox } from '../../outbox/index.js';"],
    ['src/server/modules/outbox/probe.ts', "export * from './outbox.repository.js';\nexport * from '../../db/transaction.js';"],
    // The list of areas (modules/index.ts) imports every manifest; tests may import anything.
    ['src/server/modules/probe.ts', "export * from './inbound/inbound.module.js';\nexport * from './access/access.module.js';"],
    ['tests/api/probe.ts', "export * from '../../src/server/modules/inbound/inbound.service.js';\nexport * from '../../src/server/modules/access/rights.js';"],
    ['tests/fixtures/parcel/probe.ts', "export * from '../../../src/server/modules/masterdata/masterdata.repository.js';"],
    ['src/server/install/probe.ts', "export * from '../area-kit/area-registry.js';\nexport * from '../db/transaction.js';\nexport * from '../events/events.js';"],
    ['src/app/probe.ts', "export const load = () => import('../screens/home/HomeScreen');"],
  ])('accepts in %s: %s', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});
