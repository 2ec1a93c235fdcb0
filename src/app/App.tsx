import { lazy, Suspense } from 'react';
import { HashRouter, Navigate, Route, Routes } from 'react-router-dom';
import { App as AntApp, ConfigProvider, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { isLanguage } from '../common/languages';
import { LoginScreen } from '../screens/identity/LoginScreen';
import { RequireToken } from './guard';
import { allTextsLoaded } from './i18n';
import { antdLocaleOf } from './locale';
import { PopupHost, ToastHost } from './popups';
import { useReducedMotion } from './reduced-motion';
import { GlobalLoading, SessionEvents } from './shell/SessionEvents';

/** A lazy screen that shows once its code and every area's texts are here (src/app/i18n.ts). */
function afterTexts<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), allTextsLoaded()]).then(([module]) => module);
}

// Everything behind sign-in is a lazy chunk: the login route loads no grid, editor or designer code.
const PageShell = lazy(afterTexts(() => import('./PageShell')));
// The other public screens too: the sign-in page carries only its own (tests/e2e/bundle-budget.test.ts).
const ForgotScreen = lazy(afterTexts(() => import('../screens/identity/ForgotScreen').then((m) => ({ default: m.ForgotScreen }))));
const SignScreen = lazy(afterTexts(() => import('../screens/identity/SignScreen').then((m) => ({ default: m.SignScreen }))));
const NotFoundScreen = lazy(afterTexts(() => import('../screens/NotFoundScreen').then((m) => ({ default: m.NotFoundScreen }))));
const PreviewScreen = lazy(afterTexts(() => import('../screens/preview/PreviewScreen')));
// The laundry's public phone screens (docs/laundry.md): no session, a device key kept in the browser.
const MooseScreen = lazy(afterTexts(() => import('../screens/laundry/MooseScreen')));
const MOOSE_VIEWS = ['home', 'customerInfo', 'washing', 'scan'] as const;

/**
 * No motion: dialogs, menus and drop-downs appear at once, so that a scan or a click right after
 * one opens lands on it (on a slow handheld too) and nothing slides under the pointer.
 */
const THEME = { token: { colorPrimary: '#1f5fa8', motion: false } };
/**
 * The click wave of buttons keeps its own fixed-length animation even without motion; it goes too
 * when the user's system asks for reduced motion (src/app/reduced-motion.ts).
 */
const NO_WAVE = { disabled: true };

export function App() {
  // antd's texts (pagination, pickers, empty states) follow the interface language
  // once its texts and antd's locale pack have loaded (src/app/i18n.ts).
  const { i18n } = useTranslation();
  const language = i18n.language;
  const reducedMotion = useReducedMotion();
  return (
    <ConfigProvider locale={isLanguage(language) ? antdLocaleOf(language) : undefined} theme={THEME} wave={reducedMotion ? NO_WAVE : undefined}>
      <AntApp>
        <HashRouter>
          <SessionEvents />
          <GlobalLoading />
          <PopupHost />
          <ToastHost />
          <Suspense fallback={<Spin fullscreen />}>
            <Routes>
              <Route path="/" element={<Navigate to="/login" replace />} />
              <Route path="/login" element={<LoginScreen />} />
              <Route path="/forgot" element={<ForgotScreen />} />
              <Route path="/sign" element={<SignScreen />} />
              <Route path="/notfound" element={<NotFoundScreen />} />
              {/* The laundry flow is public: its screens work with a device key instead of a session. */}
              {MOOSE_VIEWS.map((view) => (
                <Route key={view} path={`/moose/${view}`} element={<MooseScreen view={view} />} />
              ))}
              <Route
                path="/page/*"
                element={
                  <RequireToken>
                    <PageShell />
                  </RequireToken>
                }
              />
              <Route
                path="/previewImgFile"
                element={
                  <RequireToken>
                    <PreviewScreen />
                  </RequireToken>
                }
              />
              <Route path="*" element={<Navigate to="/notfound" replace />} />
            </Routes>
          </Suspense>
        </HashRouter>
      </AntApp>
    </ConfigProvider>
  );
}
