// The payments capability as the server holds it: one clock, each app's provider, and the test-mode
// provider's scheduler. Made once by createFoyer (server/app.ts) and shared by the GraphQL resolvers
// and the payment routes.
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { App } from '../apps/lookup.ts';
import { findApp } from '../apps/lookup.ts';
import { PaymentClock } from './clock.ts';
import type { PaymentProvider } from './provider.ts';
import type { PaymentsRuntime } from './service.ts';
import { hasStripeKeys, StripePaymentProvider } from './stripe-provider.ts';
import { TestPaymentProvider } from './test-provider/provider.ts';
import { WEBHOOK_PATH } from './webhook.ts';

export interface Payments extends PaymentsRuntime {
  /** Outside production only: the built-in test-mode provider. */
  testProvider: TestPaymentProvider | null;
  /** Lets the test-mode provider's time pass: trials end, periods renew, cancelled subscriptions end. */
  runDue(): Promise<void>;
}

/** How often the test-mode provider looks for trials and periods that ended (tests call runDue themselves). */
const TEST_SCHEDULE_MS = 60_000;

export function createPayments(
  config: ServerConfig,
  db: Database,
  api: FastifyInstance,
  stripe = new StripePaymentProvider(config),
): Payments {
  const clock = new PaymentClock();
  // The test-mode provider posts its events to the webhook route through the listener itself, so
  // they pass the same signature check and handler as Stripe's.
  const testProvider =
    config.env === 'production'
      ? null
      : new TestPaymentProvider(config, db, clock, async (appId, payload, signature) => {
          const answer = await api.inject({
            method: 'POST',
            url: WEBHOOK_PATH.replace(':appId', encodeURIComponent(appId)),
            headers: { 'content-type': 'application/json', 'stripe-signature': signature },
            payload,
          });
          return answer.statusCode;
        });
  const providerFor = (app: App): PaymentProvider | null => (hasStripeKeys(app) ? stripe : testProvider);
  const runDue = async () => {
    await testProvider?.runDue((appId) => findApp(db, appId));
  };
  if (testProvider) {
    const timer = setInterval(
      () => void runDue().catch((error: unknown) => api.log.error({ err: error }, 'test-mode payments schedule failed')),
      TEST_SCHEDULE_MS,
    );
    timer.unref();
    api.addHook('onClose', async () => clearInterval(timer));
  }
  return { clock, providerFor, testProvider, runDue };
}
