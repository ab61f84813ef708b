// What every server module gets: settings and the database. Modules are Fastify plugins registered
// on the listener (origin) they belong to.
import type { ServerConfig } from './config.ts';
import type { Database } from './db/client.ts';

export interface FoyerContext {
  config: ServerConfig;
  db: Database;
}
