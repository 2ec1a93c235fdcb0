/** The public entry of the handheld area. Nothing of it is used by another area yet. */
export type { HandheldPlace } from './handheld.service.js';
