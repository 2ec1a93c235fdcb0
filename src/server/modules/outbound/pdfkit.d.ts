/** The part of pdfkit (which ships without types) the pick list uses. */
declare module 'pdfkit' {
  interface TextOptions {
    width?: number;
    height?: number;
    lineBreak?: boolean;
    ellipsis?: boolean | string;
  }
  export default class PDFDocument {
    constructor(options?: { size?: string; margin?: number; info?: Record<string, string> });
    x: number;
    y: number;
    on(event: 'data', listener: (chunk: Buffer) => void): this;
    on(event: 'end', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    font(name: string): this;
    fontSize(size: number): this;
    text(text: string, options?: TextOptions): this;
    text(text: string, x?: number, y?: number, options?: TextOptions): this;
    moveDown(lines?: number): this;
    addPage(): this;
    end(): void;
  }
}
