// Admin writes that create things are limited per owner and per client address: every app stays in
// the database, and every workspace mails its owner (an address the caller chooses). Counted by the
// audit-trail limiter (server/audit/limits.ts), which reserves before the work is done.
import { releaseAttempt, reserveAttempt, type RequestLimit } from '../audit/limits.ts';
import { CONSOLE_APP_ID } from '../apps/console.ts';
import type { Database } from '../db/client.ts';
import type { AppRow } from './caller.ts';
import { AdminError } from './errors.ts';
import type { WriteOrigin } from './caller.ts';

/** Apps created: ten an hour per owner, thirty per address. */
export const APP_CREATIONS: readonly RequestLimit[] = [
  { max: 10, windowMinutes: 60, per: ['username'] },
  { max: 30, windowMinutes: 60, per: ['ip'] },
];

/** Workspaces created (each mails its owner): twenty an hour per owner (or per app, for its API key), thirty per address. */
export const WORKSPACE_CREATIONS: readonly RequestLimit[] = [
  { max: 20, windowMinutes: 60, per: ['username'] },
  { max: 30, windowMinutes: 60, per: ['ip'] },
];

/** Who the per-owner limits count: the console identity, or an app's API key. */
function actorKey(origin: WriteOrigin, app?: AppRow): string {
  return origin.caller.kind === 'owner' ? `owner:${origin.caller.userId}` : `api-key:${app?.id ?? ''}`;
}

/**
 * Runs `create` within the limits of `type`; the reservation stays as the counted event, and is
 * taken back when `create` fails.
 */
async function withinLimits<Result>(
  db: Database,
  origin: WriteOrigin,
  request: {
    type: 'app.creation_requested' | 'app.workspace_requested';
    limits: readonly RequestLimit[];
    app?: AppRow;
    refusal: AdminError;
  },
  create: () => Promise<Result>,
): Promise<Result> {
  const attempt = { appId: request.app?.id ?? CONSOLE_APP_ID, ip: origin.ip, username: actorKey(origin, request.app) };
  const reservation = await reserveAttempt(db, request.type, attempt, request.limits);
  if (reservation === null) throw request.refusal;
  try {
    return await create();
  } catch (error) {
    await releaseAttempt(db, reservation);
    throw error;
  }
}

export function withinAppCreationLimits<Result>(db: Database, origin: WriteOrigin, create: () => Promise<Result>): Promise<Result> {
  const refusal = new AdminError(429, 'TOO_MANY_APPS', 'Too many apps created recently; try again later');
  return withinLimits(db, origin, { type: 'app.creation_requested', limits: APP_CREATIONS, refusal }, create);
}

export function withinWorkspaceCreationLimits<Result>(
  db: Database,
  origin: WriteOrigin,
  app: AppRow,
  create: () => Promise<Result>,
): Promise<Result> {
  const refusal = new AdminError(429, 'TOO_MANY_WORKSPACES', 'Too many workspaces created recently; try again later');
  return withinLimits(db, origin, { type: 'app.workspace_requested', limits: WORKSPACE_CREATIONS, app, refusal }, create);
}
