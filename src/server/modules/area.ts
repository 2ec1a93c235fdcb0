/**
 * The kit every area is built with lives in the kernel (src/server/area-kit/area.ts); areas take it
 * from here, beside their folders.
 */
export * from '../area-kit/area.js';
