import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser, injectAs, json, signIn, type TestApp } from '../helpers/app.js';

/**
 * The page's view answer names the behaviours whose action needs a right of its own that the caller
 * lacks (`deniedBehaviours`), so the client shows no button the server would refuse. The wave page:
 * release and unwave need the verb `outbound.wave:release`, setting the reference the wave's edit right.
 */
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});

afterAll(async () => {
  await t?.close();
});

async function deniedOn(token: string): Promise<string[] | undefined> {
  const response = await injectAs(t.app, token, { method: 'GET', url: '/api/generic/module/view?moduleCode=outbound&functionCode=wave' });
  expect(response.statusCode, response.body).toBe(200);
  return json<{ deniedBehaviours?: string[] }>(response).deniedBehaviours;
}

describe('behaviours the caller may not run', () => {
  const wh1 = { projectCodes: ['PRJ1'], warehouseCodes: ['WH1'] };

  it('names every behaviour whose action right a viewer of the page lacks', async () => {
    const viewer = await createUser(t, { loginAccount: 'vr-viewer', rights: ['outbound.wave:view'], ...wh1 });
    expect((await deniedOn(viewer))?.sort()).toEqual(['batchUpdateRef', 'release', 'unwave']);
  });

  it('leaves out what the caller holds: the edit right, then also the release verb', async () => {
    const editor = await createUser(t, { loginAccount: 'vr-editor', rights: ['outbound.wave:view', 'outbound.wave:edit'], ...wh1 });
    expect((await deniedOn(editor))?.sort()).toEqual(['release', 'unwave']);
    const releaser = await createUser(t, { loginAccount: 'vr-releaser', rights: ['outbound.wave:view', 'outbound.wave:edit', 'outbound.wave:release'], ...wh1 });
    expect(await deniedOn(releaser)).toBeUndefined();
    expect(await deniedOn(await signIn(t.app))).toBeUndefined();
  });
});
