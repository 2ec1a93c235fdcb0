import type { TestProject } from 'vitest/node';
import { E2E_TEMPLATE_ENV, makeE2eTemplates, removeE2eTemplates, type E2eTemplates } from './e2e-template.js';

/**
 * Vitest's global set-up of the browser tests: makes the servers' data directory templates once
 * (tests/helpers/e2e-template.ts), again when watch mode runs the tests again, and removes them at the end.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  let current = await make();
  project.onTestsRerun(async () => {
    removeE2eTemplates(current);
    current = await make();
  });
  return () => removeE2eTemplates(current);
}

async function make(): Promise<E2eTemplates> {
  const started = performance.now();
  const templates = await makeE2eTemplates();
  process.env[E2E_TEMPLATE_ENV] = JSON.stringify(templates);
  console.log(`browser test data directory templates made in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return templates;
}
