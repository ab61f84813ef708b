// POST /payments/webhook/{appId}: where the app's payment provider reports. The raw body must carry a
// valid Stripe-scheme signature under the app's webhook secret (Stripe's, or the test-mode provider's
// own), checked with the official stripe package; then service.ts applies the event once. A forged, a
// replayed or another app's event is refused and changes nothing.
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.ts';
import { confirmAttempt, reserveAttempt, type RequestLimit } from '../audit/limits.ts';
import { findApp } from '../apps/lookup.ts';
import { HttpError } from '../http/errors.ts';
import { loadStripe } from './stripe-provider.ts';
import { applyProviderEvent, RefusedEvent, type PaymentsRuntime, type ProviderEvent } from './service.ts';
import { Type } from 'typebox';
import { hostedScreensRoute, PAYMENTS_TAG } from '../http/openapi.ts';
import { refusals } from '../../common/api/errors.ts';

export const WEBHOOK_PATH = '/payments/webhook/:appId';

/** Provider events are small; Stripe's are a few KiB. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/**
 * Refused events per app and client address: each is an audit row (payment.event_refused), and
 * anyone may post here, so one address writes at most this many a window. Beyond it the answer is
 * 429 and nothing is written: the rows are the limit's own count (server/audit/limits.ts), so a
 * refusal past it has nothing new to record. An event that applies is never limited; a provider
 * treats 429 like the refusal it replaces and sends the event again later.
 */
export const WEBHOOK_REFUSALS: readonly RequestLimit[] = [{ max: 30, windowMinutes: 15, per: ['app', 'ip'] }];

export async function webhookRoutes(app: FastifyInstance, { db, payments }: { db: Database; payments: PaymentsRuntime }): Promise<void> {
  // The signature covers the exact bytes sent, so the body stays raw here (this plugin's scope only).
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post<{ Params: { appId: string } }>(
    WEBHOOK_PATH,
    {
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: {
        ...hostedScreensRoute(PAYMENTS_TAG, "The payment provider's events (Stripe's scheme, signed in stripe-signature)", 'none'),
        response: { 200: Type.Object({ received: Type.Literal(true) }), ...refusals(400, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const target = await findApp(db, request.params.appId);
      const provider = target ? payments.providerFor(target) : null;
      if (!target || !provider) throw new HttpError(404, 'NOT_FOUND', 'No payments webhook here');
      const refuse = async (error: HttpError | RefusedEvent, eventId?: string) => {
        const attempt = { appId: target.id, ip: request.ip, username: '' };
        const recorded = await reserveAttempt(db, 'payment.event_refused', attempt, WEBHOOK_REFUSALS);
        if (recorded === null) return new HttpError(429, 'TOO_MANY_REQUESTS', 'Too many refused events from this address; try again later');
        await confirmAttempt(db, recorded, { detail: { provider: provider.name, reason: error.code, eventId } });
        return new HttpError(error.statusCode, error.code, error.message);
      };
      const signature = request.headers['stripe-signature'];
      if (!Buffer.isBuffer(request.body) || typeof signature !== 'string') {
        throw await refuse(new HttpError(400, 'BAD_SIGNATURE', 'A signed JSON event is expected'));
      }
      let event: ProviderEvent;
      try {
        event = (await loadStripe()).webhooks.constructEvent(
          request.body,
          signature,
          provider.webhookSecret(target),
        ) as unknown as ProviderEvent;
      } catch {
        throw await refuse(new HttpError(400, 'BAD_SIGNATURE', 'The event signature does not verify'));
      }
      if (typeof event.data?.object?.id !== 'string')
        throw await refuse(new HttpError(400, 'BAD_REQUEST', 'The event has no object'), event.id);
      let result: Awaited<ReturnType<typeof applyProviderEvent>>;
      try {
        result = await applyProviderEvent(payments, db, target, provider.name, event);
      } catch (error) {
        if (error instanceof RefusedEvent) throw await refuse(error, event.id);
        throw error;
      }
      // A new checkout replaced a running subscription: the provider ends the old one.
      if (result.replacedSubscriptionId) await provider.cancelSubscription(target, result.replacedSubscriptionId);
      return reply.send({ received: true });
    },
  );
}
