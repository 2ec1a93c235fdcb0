import type { ComponentType } from 'react';

/** The template area's hand-written screens by route, each a lazy chunk of its own (found by src/app/routes.ts). */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  // The document template designer (pdfme), its preview as PDF and publishing.
  templateDesigner: () => import('./TemplateDesignerScreen'),
  // The .jrxml files of other systems, stored per project (not rendered).
  printViewFile: () => import('./JrxmlFilesScreen'),
};
