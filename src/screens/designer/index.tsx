/**
 * The designer's public entry, loaded lazily by the shell for `/generic`
 * (src/app/shell/designer-page.tsx). Its live preview renders with the engine services of the
 * `EngineServicesContext` provider the host mounts around it.
 */
export { Designer } from './Designer';
