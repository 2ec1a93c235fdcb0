/**
 * Where the browser keeps the session token (spec section 9): session storage and a cookie named
 * `token` whose lifetime follows the session's. The cookie alone never authorizes a call; it lets
 * the shell notice that the session ended elsewhere (spec section 8: a missing cookie clears the
 * stored items).
 */
const TOKEN_KEY = 'token';
export const MENU_KEY = 'menu';
export const ACTIVE_MENU_KEY = 'activeMenu';

export function getToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function storeToken(token: string, expiresAt: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
  const expires = new Date(expiresAt).toUTCString();
  document.cookie = `${TOKEN_KEY}=${encodeURIComponent(token)}; expires=${expires}; path=/; SameSite=Strict`;
}

export function hasTokenCookie(): boolean {
  return document.cookie.split(';').some((part) => part.trim().startsWith(`${TOKEN_KEY}=`));
}

/** Clears the stored token, menu and active menu (spec section 8, on 401/403 or a lost cookie). */
export function clearSession(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(MENU_KEY);
  sessionStorage.removeItem(ACTIVE_MENU_KEY);
  localStorage.removeItem(MENU_KEY);
  localStorage.removeItem(ACTIVE_MENU_KEY);
  document.cookie = `${TOKEN_KEY}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; SameSite=Strict`;
}
