import type { FormInstance } from 'antd';
import type { ErrorBody } from '../../common/errors';
import { ApiError, i18next } from '../../app/public';

/** What sign-up and password reset both ask for: the address, the code e-mailed to it and the new password typed again. */
export interface EmailCodeFields {
  email: string;
  code: string;
  confirmPassword: string;
}

/**
 * A call of the public sign-in routes. It goes around the shared client on purpose: a wrong
 * password answers 401, which the client treats as "session ended" and answers by navigating to
 * the root; on the sign-in screens the answer belongs next to the form instead.
 */
export async function publicCall<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-language': i18next.language },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) {
    let error: ErrorBody;
    try {
      error = JSON.parse(text) as ErrorBody;
    } catch {
      error = { code: 'INTERNAL', message: response.statusText || `HTTP ${response.status}` };
    }
    throw new ApiError(response.status, error);
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The text to show for a failed call; a lock's end is shown in the browser's own time. */
export function errorText(error: unknown): string {
  if (!(error instanceof ApiError)) return (error as Error).message;
  const until = error.body.params?.until;
  if (error.body.code === 'ACCOUNT_LOCKED' && typeof until === 'string') {
    return i18next.t('errors.ACCOUNT_LOCKED', { until: new Date(until).toLocaleString(i18next.language.replace('_', '-').replace('kor', 'ko').replace('jp', 'ja')) });
  }
  return error.body.message;
}

/**
 * Puts the server's field errors on the form's fields (field names as the server names them) and
 * answers whether any was placed; the caller shows the overall message otherwise.
 */
export function applyFieldErrors(form: FormInstance, error: unknown, fields: string[]): boolean {
  if (!(error instanceof ApiError) || !error.body.details?.length) return false;
  const byField = new Map<string, string[]>();
  for (const detail of error.body.details) {
    if (!fields.includes(detail.field)) continue;
    byField.set(detail.field, [...(byField.get(detail.field) ?? []), detail.message ?? error.body.message]);
  }
  if (!byField.size) return false;
  form.setFields([...byField.entries()].map(([name, errors]) => ({ name, errors })));
  return true;
}

const TRUSTED_KEY = 'trustedBrowsers';

/** Trusted-browser tokens by login account: kept in localStorage, sent with the next sign-in. */
export function trustedBrowserToken(loginAccount: string): string | undefined {
  try {
    const map = JSON.parse(localStorage.getItem(TRUSTED_KEY) ?? '{}') as Record<string, string>;
    return map[loginAccount.trim().toLowerCase()];
  } catch {
    return undefined;
  }
}

export function rememberTrustedBrowser(loginAccount: string, token: string | undefined): void {
  let map: Record<string, string> = {};
  try {
    map = JSON.parse(localStorage.getItem(TRUSTED_KEY) ?? '{}') as Record<string, string>;
  } catch {
    map = {};
  }
  const key = loginAccount.trim().toLowerCase();
  if (token) map[key] = token;
  else delete map[key];
  localStorage.setItem(TRUSTED_KEY, JSON.stringify(map));
}
