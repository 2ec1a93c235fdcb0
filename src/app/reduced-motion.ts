import { useSyncExternalStore } from 'react';

/** The system setting of a user who asks for less motion (an operating-system or browser option). */
const QUERY = '(prefers-reduced-motion: reduce)';

/** The browser's answer to the query, or undefined where there is no matchMedia (no motion preference known). */
function mediaQuery(): MediaQueryList | undefined {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : undefined;
}

function subscribe(onChange: () => void): () => void {
  const query = mediaQuery();
  if (!query) return () => undefined;
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

function snapshot(): boolean {
  return mediaQuery()?.matches ?? false;
}

/**
 * True while the user's system asks for reduced motion; it follows a change of the setting
 * without a reload. Under it the app draws no click wave on buttons and the grids add, move and
 * sort rows without animating them: less to draw for a slow handheld, nothing moving for a user who
 * is bothered by motion.
 */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, snapshot, () => false);
}
