import { afterAll, vi } from 'vitest';

/**
 * The unit tests of a worker run one after another in one process and share its environment
 * (`isolate: false` in vitest.config.ts): a file gives back, at its end, every spy, stubbed global
 * and fake timer it set and leaves the web storage empty, so that the next file starts with the real
 * console, fetch and clock and no stored language or session.
 */
afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.useRealTimers();
  if (typeof localStorage !== 'undefined') localStorage.clear();
  if (typeof sessionStorage !== 'undefined') sessionStorage.clear();
});
