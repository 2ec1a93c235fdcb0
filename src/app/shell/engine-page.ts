import type { ComponentType } from 'react';

export interface PageViewProps {
  moduleCode: string;
  functionCode: string;
}

/**
 * The engine's renderer with the application's services, loaded only when a definition route
 * opens: the engine (ag-grid, rjsf) is its own lazy chunk, so the sign-in page loads none of it
 * (tests/e2e/login.test.ts).
 */
export async function loadPageView(): Promise<ComponentType<PageViewProps>> {
  const { EnginePage } = await import('../engine-services');
  return EnginePage;
}
