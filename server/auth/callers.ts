// Who is calling, from the request's credentials only (docs/DESIGN.md "Server", multi-tenant rules):
// - with `Authorization: Bearer <access token>`: the app is the token's aid and the workspace its
//   tid, and the membership it names must still exist, be enabled and belong to both. x-app-id is
//   ignored then, whatever it says.
// - with `x-auth-token` (the legacy mode, and no Authorization): the token's app and identity, and
//   the workspace of x-tenant-user-id only when that is an enabled membership of the token's own
//   identity in that app (server/auth/legacy-tokens.ts legacyCaller).
// - without a token: anonymous, for the app x-app-id names.
// No header can name a workspace by itself; x-tenant-id is never read.
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { apps, tenants, tenantUsers, users } from '../db/schema.ts';
import { isRole, privilegesOf } from '../../common/roles.ts';
import { findApp } from '../apps/lookup.ts';
import type { Caller } from './caller-kinds.ts';
import type { AccessTokenVerifier } from './access-tokens.ts';
import { legacyCaller } from './legacy-tokens.ts';

const BEARER = /^Bearer +([A-Za-z0-9\-_.]+) *$/i;

async function memberFromToken(db: Database, verifier: AccessTokenVerifier, token: string): Promise<Caller> {
  const verified = await verifier.verify(token);
  if (!verified.ok) return { kind: 'rejected', reason: verified.reason };
  const { sub, aid, tid, scope } = verified.claims;
  const [row] = await db
    .select({ membership: tenantUsers, tenantAppId: tenants.appId, userAppId: users.appId, app: apps })
    .from(tenantUsers)
    .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .innerJoin(apps, eq(apps.id, tenants.appId))
    .where(eq(tenantUsers.id, sub))
    .limit(1);
  if (!row) return { kind: 'rejected', reason: 'membership gone', membershipEnded: true };
  const { membership } = row;
  if (membership.tenantId !== tid || row.tenantAppId !== aid || row.userAppId !== aid) {
    return { kind: 'rejected', reason: 'membership does not match the token' };
  }
  if (!membership.enabled) return { kind: 'rejected', reason: 'membership disabled', membershipEnded: true };
  if (membership.invitationPending) return { kind: 'rejected', reason: 'invitation not accepted' };
  if (!isRole(membership.role)) return { kind: 'rejected', reason: 'unknown role' };
  const granted = new Set(scope.split(' '));
  return {
    kind: 'member',
    app: row.app,
    tenantId: membership.tenantId,
    tenantUserId: membership.id,
    userId: membership.userId,
    role: membership.role,
    privileges: new Set(privilegesOf(membership.role).filter((privilege) => granted.has(privilege))),
  };
}

export async function resolveCaller(db: Database, verifier: AccessTokenVerifier, headers: Headers): Promise<Caller> {
  const authorization = headers.get('authorization')?.trim();
  if (authorization) {
    const token = BEARER.exec(authorization)?.[1];
    if (!token) return { kind: 'rejected', reason: 'not a bearer token' };
    return memberFromToken(db, verifier, token);
  }
  if (headers.has('x-auth-token')) return legacyCaller(db, headers);
  const appId = headers.get('x-app-id')?.trim();
  if (!appId) return { kind: 'none' };
  const app = await findApp(db, appId);
  return app ? { kind: 'anonymous', app } : { kind: 'unknownApp' };
}
