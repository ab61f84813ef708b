// What every server module gets: settings and the database. Modules are Fastify plugins registered
// on the listener (origin) they belong to.
import type { ServerConfig } from './config.ts';
import type { Database } from './db/client.ts';
import type { Notifier } from './notify/types.ts';
import type { Payments } from './payments/runtime.ts';

export interface FoyerContext {
  config: ServerConfig;
  db: Database;
  /** Sends every mail (and later SMS) Foyer sends. */
  notifier: Notifier;
  /** Plans, payment providers and the payment clock (server/payments/). */
  payments: Payments;
}
