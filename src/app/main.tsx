import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app.css';
import './i18n';
import { App } from './App';
import { applyStartRoute } from './guard';
import { registerHostPopups } from '../../engine/client/host/popups';
import { popups } from './popups';

applyStartRoute();
// The engine shows its popups through the shell's, without importing the app.
registerHostPopups(popups);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
