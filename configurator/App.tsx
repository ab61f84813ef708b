// Start-up: the screens render after the auth client's start-up check (a failed check means signed
// out), inside the console's context, the admin API's query cache and the router under /configurator.
import { QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { Suspense, use, useEffect, useState } from 'react';
import { BrowserRouter } from 'react-router';
import { createQueryClient } from '../src/api/react.tsx';
import { ApiError } from '../src/http/errors.ts';
import { i18nextTexts } from '../src/i18n/i18next-texts.ts';
import { TextsProvider } from '../src/i18n/texts.ts';
import { CONSOLE_BASE_PATH } from './config.ts';
import { consoleLanguage, showConsoleLanguage } from './i18n/index.ts';
import { ConsoleRoutes } from './router.tsx';
import { ConsoleContext, type ConsoleSession } from './session.tsx';

/** Answers of the server are not retried; failures without an answer are. */
const isServerAnswer = (error: unknown) => error instanceof ApiError;

function Started({ starting, i18n }: { starting: Promise<ConsoleSession>; i18n: I18n }) {
  const session = use(starting);
  const [queryClient] = useState(() => createQueryClient(session.auth, isServerAnswer));
  // A sign-in, or a switch of workspace, may change the language (the workspace's locale).
  useEffect(() => session.auth.subscribe(() => void showConsoleLanguage(i18n, consoleLanguage(session.auth))), [session, i18n]);
  return (
    <ConsoleContext value={session}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter basename={CONSOLE_BASE_PATH}>
          <ConsoleRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </ConsoleContext>
  );
}

export function ConsoleApp({ session, i18n }: { session: ConsoleSession; i18n: I18n }) {
  const [starting] = useState(() =>
    session.auth
      .init()
      .catch(() => undefined)
      .then(() => showConsoleLanguage(i18n, consoleLanguage(session.auth)))
      .then(() => session),
  );
  // The runtime's pieces it shows (src/theme/Table.tsx's pager) read the console's texts.
  const [texts] = useState(() => i18nextTexts(i18n));
  return (
    <TextsProvider store={texts}>
      <Suspense fallback={null}>
        <Started starting={starting} i18n={i18n} />
      </Suspense>
    </TextsProvider>
  );
}
