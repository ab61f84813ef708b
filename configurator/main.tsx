import { createRoot } from 'react-dom/client';
import { createAuthClient } from '../src/auth/index.ts';
import '../src/theme/tokens.css';
import '../src/theme/foyer.css';
import './configurator.css';
import { AdminApi } from './api/client.ts';
import { ConsoleApp } from './App.tsx';
import { consoleClientConfig, loadConsoleConfig } from './config.ts';
import { consoleRuntime } from './console-storage.ts';
import { createConsoleI18n } from './i18n/index.ts';

const config = loadConsoleConfig();
const i18n = createConsoleI18n();

const container = document.getElementById('root');
if (!container) throw new Error('configurator/index.html has no #root');
const root = createRoot(container);
void createAuthClient(consoleClientConfig(config), consoleRuntime()).then((auth) => {
  root.render(<ConsoleApp session={{ config, auth, api: new AdminApi(config.apiUrl, auth) }} i18n={i18n} />);
});
