import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { FoyerProvider } from '@foyer/react';
import { App } from './App.tsx';
import { startI18n } from './i18n.ts';
import './style.css';

interface ExampleConfig {
  authOrigin: string;
  hostedUiOrigin: string;
  appId: string;
}

// Where Foyer is comes from /config.json (examples/host-app/vite.config.ts), so one build runs anywhere.
const [config] = await Promise.all([fetch('/config.json').then((answer) => answer.json() as Promise<ExampleConfig>), startI18n()]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <FoyerProvider
      authOrigin={config.authOrigin}
      hostedUiOrigin={config.hostedUiOrigin}
      appId={config.appId}
      redirectUri={`${location.origin}/callback`}
      postLogoutRedirectUri={`${location.origin}/`}
    >
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </FoyerProvider>
  </StrictMode>,
);
