import { getDefaultFont, type Font, type Template } from '@pdfme/common';
import { barcodes, ellipse, image, line, multiVariableText, rectangle, svg, table, text } from '@pdfme/schemas';
import { Designer } from '@pdfme/ui';

/*
 * The pdfme designer with the plugins the server renders (docs/templates.md). Loaded only by the
 * designer screen, as a chunk of its own (it brings its own antd). The server's font names are all
 * drawn here with pdfme's built-in font: the designer places fields; the PDF preview shows the
 * real fonts.
 */
const PLUGINS = Object.fromEntries([text, multiVariableText, table, line, rectangle, ellipse, image, svg, ...Object.values(barcodes)].map((p) => [p.propPanel.defaultSchema.type, p]));

export function openDesigner(container: HTMLElement, template: Template, fontNames: string[]): Designer {
  const roboto = Object.values(getDefaultFont())[0];
  const font: Font = { Roboto: { ...roboto, fallback: true }, ...Object.fromEntries(fontNames.map((name) => [name, { data: roboto.data }])) };
  return new Designer({ domContainer: container, template, plugins: PLUGINS, options: { font } });
}
