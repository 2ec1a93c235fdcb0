import type { TestProject } from 'vitest/node';
import { E2E_TEMPLATE_ENV, makeE2eTemplates, removeE2eTemplates, type E2eTemplates } from './e2e-template.js';
import { buildServerBundle, removeServerBundle } from './server-bundle.js';
import { SERVER_BUNDLE_ENV } from './server-process.js';

/**
 * Vitest's global set-up of the browser tests: bundles the server once (tests/helpers/server-bundle.ts),
 * then makes the servers' data directory templates with it (tests/helpers/e2e-template.ts), again
 * when watch mode runs the tests again, and removes both at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let current = await make();
  project.onTestsRerun(async () => {
    await remove(current);
    current = await make();
  });
  return () => remove(current);
}

interface Made {
  bundle: string;
  templates: E2eTemplates;
}

async function make(): Promise<Made> {
  let started = performance.now();
  const bundle = await buildServerBundle();
  process.env[SERVER_BUNDLE_ENV] = bundle;
  console.log(`server bundled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  started = performance.now();
  const templates = await makeE2eTemplates();
  process.env[E2E_TEMPLATE_ENV] = JSON.stringify(templates);
  console.log(`browser test templates (${templates.server ? 'PostgreSQL' : 'embedded database'}) made in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { bundle, templates };
}

async function remove(made: Made): Promise<void> {
  removeServerBundle(made.bundle);
  await removeE2eTemplates(made.templates);
}
