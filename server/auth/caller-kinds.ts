// The kinds of caller a request can be, as server/auth/callers.ts resolves them from its credentials.
import type { Privilege, Role } from '../../common/roles.ts';
import type { App } from '../apps/lookup.ts';

/** A signed-in member of a workspace, as the verified token (or legacy headers) and the database agree on it. */
export interface MemberCaller {
  kind: 'member';
  app: App;
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
  | { kind: 'anonymous'; app: App }
  /** No token and no x-app-id. */
  | { kind: 'none' }
  /** No token; x-app-id names no app. */
  | { kind: 'unknownApp' }
  /** A bearer or legacy token that failed verification or names a membership that no longer counts. */
  | { kind: 'rejected'; reason: string; membershipEnded?: true }
  | MemberCaller;
