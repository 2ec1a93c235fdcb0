/** The part of pdfkit (which ships without types) the product's PDFs use. */
declare module 'pdfkit' {
  interface TextOptions {
    width?: number;
    height?: number;
    lineBreak?: boolean;
    ellipsis?: boolean | string;
    continued?: boolean;
    align?: 'left' | 'center' | 'right' | 'justify';
    lineGap?: number;
  }
  export default class PDFDocument {
    constructor(options?: { size?: string | [number, number]; margin?: number; margins?: { top: number; bottom: number; left: number; right: number }; autoFirstPage?: boolean; info?: Record<string, string> });
    x: number;
    y: number;
    page: { width: number; height: number };
    on(event: 'data', listener: (chunk: Buffer) => void): this;
    on(event: 'end', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    registerFont(name: string, src: Buffer | string): this;
    font(name: string): this;
    fontSize(size: number): this;
    text(text: string, options?: TextOptions): this;
    text(text: string, x?: number, y?: number, options?: TextOptions): this;
    widthOfString(text: string): number;
    heightOfString(text: string, options?: TextOptions): number;
    moveDown(lines?: number): this;
    addPage(options?: { size?: string | [number, number]; margin?: number }): this;
    rect(x: number, y: number, w: number, h: number): this;
    moveTo(x: number, y: number): this;
    lineTo(x: number, y: number): this;
    lineWidth(width: number): this;
    fill(color?: string): this;
    stroke(color?: string): this;
    fillColor(color: string): this;
    end(): void;
  }
}

/** The part of fontkit (pdfkit's font reader, which ships without types) used to ask a font for a glyph. */
declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Buffer): Font;
}
