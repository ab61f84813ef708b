// What every resolver gets: settings, the database, the mail module, and who is calling. The caller
// is settled once per request from the verified access token or legacy headers (or, for anonymous
// calls, the x-app-id header) before any field resolves; resolvers never read request headers themselves.
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Caller } from '../auth/caller-kinds.ts';
import type { Notifier } from '../notify/types.ts';
import type { Payments } from '../payments/runtime.ts';

export interface GraphQLContext {
  config: ServerConfig;
  db: Database;
  notifier: Notifier;
  /** Plans, providers and the payment clock (server/payments/). */
  payments: Payments;
  caller: Caller;
  /** The client's address as Fastify sees it: X-Forwarded-For counts only from config.trustProxy. */
  clientIp: string;
  log: FastifyBaseLogger;
}
