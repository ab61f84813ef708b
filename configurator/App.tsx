// Start-up: the screens render after the auth client's start-up check (a failed check means signed
// out), inside the console's context, the admin API's query cache and the router under /configurator.
import { QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { Suspense, use, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { createQueryClient } from '../src/api/react.tsx';
import { ApiError } from '../src/http/errors.ts';
import { createConsoleRouter } from './router.tsx';
import { ConsoleContext, type ConsoleSession } from './session.tsx';

/** Answers of the server are not retried; failures without an answer are. */
const isServerAnswer = (error: unknown) => error instanceof ApiError;

function Started({ starting }: { starting: Promise<ConsoleSession> }) {
  const session = use(starting);
  const [router] = useState(createConsoleRouter);
  const [queryClient] = useState(() => createQueryClient(session.auth, isServerAnswer));
  return (
    <ConsoleContext value={session}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ConsoleContext>
  );
}

export function ConsoleApp({ session, i18n }: { session: ConsoleSession; i18n: I18n }) {
  const [starting] = useState(() =>
    session.auth
      .init()
      .catch(() => undefined)
      .then(() => session),
  );
  return (
    <I18nextProvider i18n={i18n}>
      <Suspense fallback={null}>
        <Started starting={starting} />
      </Suspense>
    </I18nextProvider>
  );
}
