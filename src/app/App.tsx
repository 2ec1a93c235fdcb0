import { lazy, Suspense } from 'react';
import { HashRouter, Navigate, Route, Routes } from 'react-router-dom';
import { App as AntApp, ConfigProvider, Spin } from 'antd';
import { LANGUAGES } from '../common/languages';
import { LoginScreen } from '../screens/auth/LoginScreen';
import { ForgotScreen } from '../screens/auth/ForgotScreen';
import { SignScreen } from '../screens/auth/SignScreen';
import { NotFoundScreen } from '../screens/NotFoundScreen';
import { NotAvailableScreen } from '../screens/NotAvailableScreen';
import { RequireToken } from './guard';
import { LOCALES } from './locale';
import { PopupHost, ToastHost } from './popups';
import { GlobalLoading, SessionEvents } from './shell/SessionEvents';
import { useSession } from './store/session-store';

// Everything behind sign-in is a lazy chunk: the login route loads no grid, editor or designer code.
const PageShell = lazy(() => import('./PageShell'));
const PreviewScreen = lazy(() => import('../screens/preview/PreviewScreen'));

export function App() {
  // antd's texts (pagination, pickers, empty states) follow the interface language (issue 4, item 8).
  const language = LANGUAGES[useSession((s) => s.languageCode)] ?? 'en';
  return (
    <ConfigProvider locale={LOCALES[language].antd} theme={{ token: { colorPrimary: '#1f5fa8' } }}>
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
              {/* The laundry flow of spec section 1 is public; its screens arrive with their issue. */}
              {['/moose/home', '/moose/customerInfo', '/moose/washing', '/moose/scan'].map((path) => (
                <Route key={path} path={path} element={<NotAvailableScreen route={path} />} />
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
