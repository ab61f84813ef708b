// An app's back end calling the management API (server/management/) with one of the app's API keys,
// about one workspace of that app (x-tenant-id, checked to be the app's before anything runs). It
// has an OWNER's authority over that workspace but is no member of it: nothing it does is "self",
// and the audit trail names the key instead of a membership.
import type { App } from '../apps/lookup.ts';
import type { MemberCaller } from './caller-kinds.ts';

export interface AppKeyCaller {
  kind: 'appKey';
  app: App;
  tenantId: string;
  /** The API key's id (never the key), recorded as the actor. */
  apiKeyId: string;
}

/** Who acts on a workspace's members: a signed-in member, or the app's back end with an API key. */
export type WorkspaceActor = MemberCaller | AppKeyCaller;

/** The audit fields naming the actor: the membership, or (for a key) none, with the key in the detail. */
export function auditActorOf(actor: WorkspaceActor): {
  userId: string | null;
  tenantUserId: string | null;
  actorDetail: Record<string, unknown>;
} {
  return actor.kind === 'member'
    ? { userId: actor.userId, tenantUserId: actor.tenantUserId, actorDetail: {} }
    : { userId: null, tenantUserId: null, actorDetail: { apiKeyId: actor.apiKeyId } };
}
