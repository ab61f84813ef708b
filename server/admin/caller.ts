// Who calls the admin API, from the request's credentials only (docs/configurator.md "Who may do what"):
// - `Authorization: Bearer <access token>` of the console app: an owner, as a member of one console
//   workspace (the token's, re-checked against the database like every API token); the apps that
//   workspace owns (app_owners) are theirs, reading with TENANT_READ and writing with TENANT_WRITE.
// - `x-api-key: <key>`: full rights on that key's app and nothing else.
// An app the caller may not reach answers exactly like an unknown one.
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client.ts';
import { appOwners, apps, users } from '../db/schema.ts';
import type { Privilege } from '../../common/roles.ts';
import { CONSOLE_APP_ID } from '../apps/console.ts';
import { resolveCaller } from '../auth/callers.ts';
import type { AccessTokenVerifier } from '../auth/access-tokens.ts';
import { appOfApiKey } from '../apps/api-keys.ts';
import { forbidden, unauthenticated, unknownApp } from './errors.ts';

export type AppRow = typeof apps.$inferSelect;

export type AdminCaller =
  | {
      kind: 'owner';
      /** The console identity and membership acting. */
      userId: string;
      tenantUserId: string;
      /** The console workspace whose apps the owner manages. */
      tenantId: string;
      email: string;
      privileges: ReadonlySet<Privilege>;
    }
  | { kind: 'apiKey'; appId: string };

/** Who writes and from where: what every admin write records. */
export interface WriteOrigin {
  caller: AdminCaller;
  ip: string;
}

/** Recorded as the actor of audit events and as a version's author. */
export function actorOf(caller: AdminCaller): string {
  return caller.kind === 'owner' ? caller.email : 'api-key';
}

export function authorOf(caller: AdminCaller): string {
  return caller.kind === 'owner' ? caller.email : 'API key';
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

export async function resolveAdminCaller(db: Database, verifier: AccessTokenVerifier, request: FastifyRequest): Promise<AdminCaller> {
  const authorization = headerOf(request, 'authorization');
  if (authorization) {
    const member = await resolveCaller(db, verifier, new Headers({ authorization }));
    // A token of any other app (an app's own users) is no console credential.
    if (member.kind !== 'member' || member.app.id !== CONSOLE_APP_ID) {
      if (member.kind === 'rejected') request.log.info({ reason: member.reason }, 'admin access token rejected');
      throw unauthenticated();
    }
    const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, member.userId)).limit(1);
    if (!user) throw unauthenticated();
    return {
      kind: 'owner',
      userId: member.userId,
      tenantUserId: member.tenantUserId,
      tenantId: member.tenantId,
      email: user.email,
      privileges: member.privileges,
    };
  }
  const key = headerOf(request, 'x-api-key');
  if (key) {
    const appId = await appOfApiKey(db, key);
    if (!appId) throw unauthenticated();
    return { kind: 'apiKey', appId };
  }
  throw unauthenticated();
}

export type Access = 'read' | 'write';

const privilegeFor: Record<Access, Privilege> = { read: 'TENANT_READ', write: 'TENANT_WRITE' };

/** Refuses an owner whose role lacks the privilege (after the app was found theirs). */
export function requirePrivilege(caller: AdminCaller, access: Access): void {
  if (caller.kind === 'owner' && !caller.privileges.has(privilegeFor[access])) {
    throw forbidden(access === 'read' ? 'Your role cannot view app settings' : 'Your role cannot change app settings');
  }
}

/** App ids are UUIDs (and foyer-console); anything far longer is not worth a query. */
const MAX_APP_ID_LENGTH = 100;

/** The app, when the caller may reach it with `access`; 404 UNKNOWN_APP when it is not theirs, 403 when the role is too weak. */
export async function appFor(db: Database, caller: AdminCaller, appId: string, access: Access): Promise<AppRow> {
  if (appId.length === 0 || appId.length > MAX_APP_ID_LENGTH) throw unknownApp();
  if (caller.kind === 'apiKey') {
    if (caller.appId !== appId) throw unknownApp();
    const [app] = await db.select().from(apps).where(eq(apps.id, appId)).limit(1);
    if (!app) throw unknownApp();
    return app;
  }
  const [row] = await db
    .select({ app: apps })
    .from(appOwners)
    .innerJoin(apps, eq(apps.id, appOwners.appId))
    .where(and(eq(appOwners.appId, appId), eq(appOwners.tenantId, caller.tenantId)))
    .limit(1);
  if (!row) throw unknownApp();
  requirePrivilege(caller, access);
  return row.app;
}
