/**
 * Where the browser keeps the session token: session storage and a cookie named
 * `token` whose lifetime follows the session's. The cookie alone never authorizes a call; it lets
 * the shell notice that the session ended elsewhere (a missing cookie clears the
 * stored items).
 */
const TOKEN_KEY = 'token';
export const MENU_KEY = 'menu';
export const ACTIVE_MENU_KEY = 'activeMenu';

const RETURN_KEY = 'returnTo';

/**
 * The session's token: this tab's, or, in a new tab or a bookmark, the one of the `token` cookie
 * whose lifetime is the session's. The server still reads the
 * token only from the Authorization header: the cookie alone authorizes nothing.
 */
export function getToken(): string | null {
  const stored = sessionStorage.getItem(TOKEN_KEY);
  if (stored) return stored;
  const fromCookie = tokenCookie();
  if (fromCookie) sessionStorage.setItem(TOKEN_KEY, fromCookie);
  return fromCookie;
}

function tokenCookie(): string | null {
  const part = document.cookie
    .split(';')
    .map((p) => p.trim())
    .find((p) => p.startsWith(`${TOKEN_KEY}=`));
  const value = part ? decodeURIComponent(part.slice(TOKEN_KEY.length + 1)) : '';
  return value || null;
}

/** Remembers the page a signed-out user asked for, to open it after sign-in. */
export function rememberReturnPath(path: string): void {
  if (path.startsWith('/page/')) sessionStorage.setItem(RETURN_KEY, path);
}

/** The page asked for before sign-in, once. */
export function takeReturnPath(): string | null {
  const path = sessionStorage.getItem(RETURN_KEY);
  sessionStorage.removeItem(RETURN_KEY);
  return path && path.startsWith('/page/') ? path : null;
}

export function storeToken(token: string, expiresAt: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
  const expires = new Date(expiresAt).toUTCString();
  document.cookie = `${TOKEN_KEY}=${encodeURIComponent(token)}; expires=${expires}; path=/; SameSite=Strict`;
}

export function hasTokenCookie(): boolean {
  return document.cookie.split(';').some((part) => part.trim().startsWith(`${TOKEN_KEY}=`));
}

/** Clears the stored token, menu and active menu (on 401/403 or a lost cookie). */
export function clearSession(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(MENU_KEY);
  sessionStorage.removeItem(ACTIVE_MENU_KEY);
  localStorage.removeItem(MENU_KEY);
  localStorage.removeItem(ACTIVE_MENU_KEY);
  document.cookie = `${TOKEN_KEY}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; SameSite=Strict`;
}
