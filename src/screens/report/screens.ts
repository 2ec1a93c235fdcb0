import type { ComponentType } from 'react';

/** The report area's hand-written screens by route, each a lazy chunk of its own (found by src/app/routes.ts). */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  // The configurator's report list and editor.
  userReport: () => import('./ReportConfigScreen'),
  // The operator's report runner: search form, pages, totals, export.
  userGeneric: () => import('./ReportRunScreen'),
  // The project's start page of report widgets, and its editor for configurators.
  blankHome: () => import('./DashboardScreen'),
};
