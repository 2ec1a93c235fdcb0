import { lazy, Suspense } from 'react';
import { HashRouter, Navigate, Route, Routes } from 'react-router-dom';
import { ConfigProvider, Spin } from 'antd';
import { LoginScreen } from '../screens/auth/LoginScreen';
import { NotFoundScreen } from '../screens/NotFoundScreen';

// Everything behind sign-in is a lazy chunk: the login route loads no grid, editor or designer code.
const PageShell = lazy(() => import('./PageShell'));

export function App() {
  return (
    <ConfigProvider theme={{ token: { colorPrimary: '#1f5fa8' } }}>
      <HashRouter>
        <Suspense fallback={<Spin fullscreen />}>
          <Routes>
            <Route path="/" element={<Navigate to="/login" replace />} />
            <Route path="/login" element={<LoginScreen />} />
            <Route path="/notfound" element={<NotFoundScreen />} />
            <Route path="/page/*" element={<PageShell />} />
            <Route path="*" element={<Navigate to="/notfound" replace />} />
          </Routes>
        </Suspense>
      </HashRouter>
    </ConfigProvider>
  );
}
