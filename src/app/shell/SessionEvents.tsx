import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ErrorBody } from '../../common/errors';
import { onApiEvent } from '../api/client';
import { clearSession, getToken, hasTokenCookie } from '../api/token';
import { showMessage } from '../popups';
import { resetSession, updateSession, useSession } from '../store/session-store';
import { LoadingCounter } from './loading-counter';

const COOKIE_CHECK_MS = 5_000;

/** An error answer as the popup shows it: the message, then what each named field got wrong. */
function errorText(body: ErrorBody): string {
  const fields = (body.details ?? []).map((detail) => detail.message).filter((text): text is string => !!text && text !== body.message);
  return [body.message, ...new Set(fields)].join('\n');
}

/**
 * What the whole application does about its calls and its session, wherever the user is:
 * counts calls for the loading indicator, shows error answers in the message popup (already in
 * the user's language: every call sends it), and on 401/403 or a vanished token cookie clears
 * the stored token, menu and active menu and goes to the root.
 */
export function SessionEvents() {
  const navigate = useNavigate();
  // useNavigate changes with every location; the subscriptions below must outlive navigations
  // (the loading counter would lose calls in flight).
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);

  useEffect(() => {
    const counter = new LoadingCounter((loading) => updateSession({ loading }));
    const endSession = () => {
      clearSession();
      resetSession();
      void navigateRef.current('/', { replace: true });
    };
    const unsubscribe = onApiEvent((event) => {
      switch (event.type) {
        case 'start':
          counter.start();
          break;
        case 'end':
          counter.end();
          break;
        case 'unauthorized':
          endSession();
          break;
        case 'error':
          // A 401 only means "sign in again": the sign-in page is the answer, not a popup.
          if (event.error.status !== 401) void showMessage({ type: 'error', content: errorText(event.error.body) });
          break;
      }
    });
    // When the token cookie is gone (expired, or signed out in another tab), the
    // stored items are cleared too.
    const checkCookie = () => {
      if (getToken() && !hasTokenCookie()) endSession();
    };
    const interval = setInterval(checkCookie, COOKIE_CHECK_MS);
    window.addEventListener('focus', checkCookie);
    return () => {
      unsubscribe();
      clearInterval(interval);
      window.removeEventListener('focus', checkCookie);
    };
  }, []);

  return null;
}

/** The global loading indicator: a thin bar and a spinner at the top while calls run. */
export function GlobalLoading() {
  const { t } = useTranslation();
  const loading = useSession((s) => s.loading);
  if (!loading) return null;
  return (
    <div
      role="progressbar"
      aria-label={t('ui.shell.loading')}
      data-testid="global-loading"
      style={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: 3000, pointerEvents: 'none' }}
    >
      <style>{'@keyframes wms-loading { 0%, 100% { opacity: 0.35 } 50% { opacity: 1 } }'}</style>
      <div style={{ height: 3, background: '#1f5fa8', animation: 'wms-loading 1.2s ease-in-out infinite' }} />
      <div style={{ position: 'absolute', top: 8, right: 12 }}>
        <Spin size="small" />
      </div>
    </div>
  );
}
