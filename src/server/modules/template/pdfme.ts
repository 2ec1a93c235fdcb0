async function importPdfme() {
  const [common, generator, schemas] = await Promise.all([import('@pdfme/common'), import('@pdfme/generator'), import('@pdfme/schemas')]);
  const { barcodes, ellipse, image, line, multiVariableText, rectangle, svg, table, text } = schemas;
  const list = [text, multiVariableText, table, line, rectangle, ellipse, image, svg, ...Object.values(barcodes)];
  const plugins = Object.fromEntries(list.map((p) => [p.propPanel.defaultSchema.type, p]));
  return {
    checkTemplate: common.checkTemplate,
    generate: generator.generate,
    /** The plugins a template may use, by their schema `type`. */
    plugins,
    schemaTypes: Object.keys(plugins).sort(),
    /** The table plugin's own default field, which the shipped templates' tables start from. */
    tableSchema: table.propPanel.defaultSchema as unknown as Record<string, unknown>,
  };
}

export type Pdfme = Awaited<ReturnType<typeof importPdfme>>;

let loading: Promise<Pdfme> | undefined;

/**
 * pdfme (template checks, rendering and its field plugins), loaded the first time a template is
 * checked, rendered or shipped rather than when the server starts: loading it costs about two
 * seconds of processor time. A failed load is forgotten, so the next call tries again.
 */
export function loadPdfme(): Promise<Pdfme> {
  loading ??= importPdfme().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
