/**
 * The public entry of the template area: what other areas may use of it. Another area imports this
 * file and nothing else of the folder (lint: local/import-boundaries).
 */
export { printDocuments, printPublished, printWithTemplate, templateForPrinting, templatesForPrinting, type PrintableTemplate } from './template.service.js';
export type { TemplateKind } from './template.defaults.js';
export type { TemplateInputs } from './template.pdf.js';
