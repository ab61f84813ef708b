// Assembles Foyer: one Fastify listener per origin (auth service, API host, hosted UI), each with
// the capability modules that belong to it.
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { ServerConfig } from './config.ts';
import type { Database } from './db/client.ts';
import type { FoyerContext } from './context.ts';
import { createListener, type LogStream } from './http/listener.ts';
import { ERROR_PAGE_PATH } from './http/errors.ts';
import { adminPlugin, ADMIN_PREFIX } from './admin/plugin.ts';
import { brandingPlugin } from './branding/plugin.ts';
import { workspaceLogoPlugin, WORKSPACE_PREFIX } from './branding/workspace-logo.ts';
import { graphqlPlugin } from './graphql/plugin.ts';
import { authProxyPlugin } from './auth-proxy/plugin.ts';
import { uiPlugin } from './ui/plugin.ts';
import { createNotifier } from './notify/service.ts';
import { mailboxPlugin } from './notify/mailbox.ts';
import { authServicePlugin } from './auth/plugin.ts';
import { bindKeySecrets } from './auth/signing-keys.ts';
import { createDevIdentityProvider } from './dev-idp/server.ts';
import { createPayments, type Payments } from './payments/runtime.ts';
import { paymentsPlugin } from './payments/routes.ts';
import { managementPlugin, MANAGEMENT_PREFIX } from './management/plugin.ts';
import { collectAuthServiceRoutes, registerOpenApi } from './management/openapi.ts';
import { startWebhookWorker } from './webhooks/worker.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { enterpriseAdminRoutes } from './admin/enterprise-connections.ts';

export interface Foyer {
  auth: FastifyInstance;
  api: FastifyInstance;
  ui: FastifyInstance;
  /** The payments capability: tests move its clock and run the test-mode provider's schedule. */
  payments: Payments;
  /** Listens on the configured ports (0 = any free port) and answers the bound URLs. */
  listen(host?: string): Promise<{ auth: string; api: string; ui: string }>;
  close(): Promise<void>;
}

/** A route as a listener registers it, for callers that check what is served (the OpenAPI document's test). */
export type RouteObserver = (listener: 'auth' | 'api' | 'ui', route: RouteOptions) => void;

export async function createFoyer(options: {
  config: ServerConfig;
  db: Database;
  appId: string;
  observeRoutes?: RouteObserver;
  /** Where the listeners log instead of stdout (tests read what production would log). */
  logStream?: LogStream;
}): Promise<Foyer> {
  const { config, db, logStream } = options;
  bindKeySecrets(db, config);
  const errorPage = (code: string) => `${config.urls.ui}${ERROR_PAGE_PATH}?${new URLSearchParams({ error: code }).toString()}`;
  const auth = createListener(config, 'auth', { errorPage, logStream });
  const api = createListener(config, 'api', { logStream });
  const ui = createListener(config, 'ui', { ownNotFound: true, errorPage, logStream });
  const { observeRoutes } = options;
  if (observeRoutes) {
    for (const [name, listener] of Object.entries({ auth, api, ui }) as ['auth' | 'api' | 'ui', FastifyInstance][]) {
      listener.addHook('onRoute', (route) => observeRoutes(name, route));
    }
  }
  const notifier = createNotifier({ config, db, log: auth.log.child({ module: 'notify' }) });
  const payments = createPayments(config, db, api);
  const context: FoyerContext = { config, db, notifier, payments };

  // First on each listener: the OpenAPI collectors see the routes registered after them.
  await collectAuthServiceRoutes(auth);
  await auth.register(authServicePlugin, context);

  await registerOpenApi(api, config, auth);
  await api.register(brandingPlugin, context);
  await api.register(graphqlPlugin, context);
  await api.register(adminPlugin, { ...context, prefix: ADMIN_PREFIX, extensions: [webhookRoutes, enterpriseAdminRoutes] });
  await api.register(managementPlugin, { ...context, prefix: MANAGEMENT_PREFIX });
  await api.register(workspaceLogoPlugin, { ...context, prefix: WORKSPACE_PREFIX });
  await api.register(authProxyPlugin, context);
  await api.register(paymentsPlugin, { ...context, payments });

  // Before the UI's page fallback, which would otherwise answer /dev/mailbox with the runtime.
  await ui.register(mailboxPlugin, context);
  await ui.register(uiPlugin, { ...context, appId: options.appId });

  // Posts the webhook outbox from this process, beside the workers of any other instance (server/webhooks/worker.ts).
  const webhookWorker = startWebhookWorker({ config, db, log: api.log.child({ module: 'webhooks' }) });

  const listeners = { auth, api, ui };
  // Stands in for the social providers of apps without credentials; never in production.
  const devIdp = config.env === 'production' ? undefined : createDevIdentityProvider(config);
  return {
    ...listeners,
    payments,
    async listen(host = config.host) {
      const bound = { auth: '', api: '', ui: '' };
      for (const name of ['auth', 'api', 'ui'] as const) {
        bound[name] = await listeners[name].listen({ port: config.ports[name], host });
      }
      // A development aid: a port already taken leaves the social buttons of apps without
      // credentials saying the provider cannot be reached, and Foyer runs on.
      await devIdp
        ?.listen(host)
        .catch((error: unknown) =>
          auth.log.warn({ err: error, port: config.devIdp.port }, 'the development identity provider could not listen'),
        );
      return bound;
    },
    async close() {
      // Closing a listener waits for every request in flight; one whose client stalls (a body that
      // never arrives, an answer never read) would hold the shutdown until Node's request timeout.
      const servers = [auth.server, api.server, ui.server];
      const grace = setTimeout(() => servers.forEach((server) => server.closeAllConnections()), config.shutdownGraceMs);
      try {
        await Promise.all([auth.close(), api.close(), ui.close(), devIdp?.close(), webhookWorker.stop()]);
      } finally {
        clearTimeout(grace);
      }
      await notifier.close();
    },
  };
}
