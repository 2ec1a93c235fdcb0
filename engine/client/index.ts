/**
 * Public entry of the browser renderer. The host mounts `PageView` inside an
 * `EngineServicesContext` provider that fills `EngineServices`; the engine reaches the API, the
 * popups and navigation only through it.
 */
export { PageView, type PageViewProps } from './PageView.js';
export { EngineServicesContext, ReducedMotionContext, useEngineServices } from './services.js';
export type { EngineServices, HostToolbarActionProps, EngineCallError, EngineCallOptions, EngineFieldError, TransferProgress } from './services.js';
export { MAX_SELECTION } from './model/isBehaviourEnabled.js';
