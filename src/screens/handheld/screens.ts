import type { ComponentType } from 'react';

/** The handheld area's hand-written screens by route, each a lazy chunk of its own (found by src/app/routes.ts). */
export const screens: Record<string, () => Promise<{ default: ComponentType }>> = {
  // The configurations of the handheld flows: steps, dialogs, location logic; draft, publish, copy.
  handheldConfig: () => import('./HandheldConfig'),
  // The one runtime that runs a published configuration (360x640, keyboard-wedge scanner).
  rfFlow: () => import('./RfFlow'),
  // The supervisor's list of the devices signed in now.
  rfDevices: () => import('./RfDevices'),
};
