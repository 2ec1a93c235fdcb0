import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One worker per core: the main process only hands out files and collects results while the
    // workers run, so it needs no core of its own (vitest's default keeps one free).
    maxWorkers: os.availableParallelism(),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          // Component tests opt in with `// @vitest-environment jsdom` at the top of the file.
          environment: 'node',
          // A component test renders antd in jsdom, which takes tens of seconds on a loaded machine.
          testTimeout: 120_000,
          // A worker runs its files one after another in one process, so that React, antd and the
          // app's modules load once per worker instead of once per file (about a fifth of the
          // project's processor time). A worker's files share one environment (files of jsdom and
          // files of node go to different workers), so a component test unmounts what it rendered
          // (`cleanup`), and every file gives back its spies, stubs and fake timers at its end
          // (tests/helpers/unit-setup.ts).
          isolate: false,
          setupFiles: ['tests/helpers/unit-setup.ts'],
          // On CI a failed test is run once more and named at the end of the log (see the API tests).
          retry: process.env.CI ? 1 : 0,
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          // Makes this run's test database templates once, before the first test file.
          globalSetup: ['tests/helpers/global-setup.ts'],
          // A worker runs its files one after another in one process, so the server's modules load
          // once per worker instead of once per file. Every file builds its own app on its own
          // database and closes both; API tests replace no module, timer or global.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // On CI a test that fails is run once more, as in the browser tests below: a test that
          // fails twice fails the run, and the end of the CI log names every test that needed its
          // second run, to be looked into (a test whose first run wrote data may fail again on it).
          retry: process.env.CI ? 1 : 0,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          // Makes this run's data directories of a first start once, before the first test file.
          globalSetup: ['tests/helpers/e2e-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 240_000,
          // Files run side by side: each starts its own server process on its own data directory
          // and its own Chromium, so they share nothing but the built app in dist/.
          isolate: false,
          // A browser step on a loaded CI machine can take seconds: polls wait up to 15 s, not 1 s.
          expect: { poll: { timeout: 15_000, interval: 100 } },
          // On CI a browser test that fails is run once more: a step that waits on a machine whose
          // two cores also run another Chromium and server can miss its time. A test that fails
          // twice fails the run, and the report names every test that needed its second run.
          retry: process.env.CI ? 1 : 0,
        },
      },
    ],
  },
});
