/** The registry of what the areas declare lives in the kernel (src/server/area-kit/area-registry.ts). */
export * from '../area-kit/area-registry.js';
