import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { getToken, rememberReturnPath } from './api/token';

/** The public routes: they need no token. */
export const PUBLIC_PATHS = ['/', '/login', '/forgot', '/sign', '/notfound', '/moose/home', '/moose/customerInfo', '/moose/washing', '/moose/scan'];

/** The guard of the signed-in routes: it checks only for a stored sign-in token. */
export function RequireToken({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (getToken()) return children;
  rememberReturnPath(`${location.pathname}${location.search}`);
  return <Navigate to="/" replace />;
}

/**
 * Where the app starts: with a stored token, every path but /previewImgFile and the laundry's
 * public screens (/moose/..., which work with a device key, not a session) goes to /page. A path already under /page counts as /page, so a reload keeps the open screen.
 * Returns the hash path to replace the current one with, or undefined to stay.
 */
export function startRedirect(hashPath: string, hasToken: boolean): string | undefined {
  if (!hasToken) return undefined;
  const path = hashPath.split('?')[0] || '/';
  if (path === '/previewImgFile' || path.startsWith('/previewImgFile/')) return undefined;
  if (path.startsWith('/moose/')) return undefined;
  if (path === '/page' || path.startsWith('/page/')) return undefined;
  return '/page';
}

/** Applies `startRedirect` to the browser's location before the router reads it. */
export function applyStartRoute(): void {
  const target = startRedirect(window.location.hash.replace(/^#/, ''), Boolean(getToken()));
  if (target) window.location.replace(`#${target}`);
}
