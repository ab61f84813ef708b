// What every resolver gets: settings, the database, the mail module, and who is calling. The caller
// is settled once per request from the verified access token or legacy headers (or, for anonymous
// calls, the x-app-id header) before any field resolves; resolvers never read request headers themselves.
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { apps } from '../db/schema.ts';
import type { Privilege } from '../../common/roles.ts';
import type { Role } from '../apps/settings.ts';
import type { Notifier } from '../notify/types.ts';

export type AppRecord = typeof apps.$inferSelect;

/** A signed-in member of a workspace, as the verified token (or legacy headers) and the database agree on it. */
export interface MemberCaller {
  kind: 'member';
  app: AppRecord;
  tenantId: string;
  tenantUserId: string;
  userId: string;
  /** The membership's current role (a role changed after the token was issued counts at once). */
  role: Role;
  /** The token's scope, narrowed to what the current role still grants. */
  privileges: ReadonlySet<Privilege>;
}

export type Caller =
  /** No token; x-app-id names a known app. */
  | { kind: 'anonymous'; app: AppRecord }
  /** No token and no x-app-id. */
  | { kind: 'none' }
  /** No token; x-app-id names no app. */
  | { kind: 'unknownApp' }
  /** A bearer or legacy token that failed verification or names a membership that no longer counts. */
  | { kind: 'rejected'; reason: string; membershipEnded?: true }
  | MemberCaller;

export interface GraphQLContext {
  config: ServerConfig;
  db: Database;
  notifier: Notifier;
  caller: Caller;
  /** The client's address as Fastify sees it: X-Forwarded-For counts only from config.trustProxy. */
  clientIp: string;
  log: FastifyBaseLogger;
}
