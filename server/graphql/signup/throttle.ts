// At most ten workspaces per app and client address an hour: each signup mails a link, so the limit
// caps the mail any one address can make Foyer send. Counted by the shared audit-trail limiter.
import type { Database } from '../../db/client.ts';
import { reserveAttempt, type Limit } from '../../audit/limits.ts';

export const SIGNUP_LIMIT: Limit = { type: 'tenant.signup', max: 10, windowMinutes: 60, per: ['app', 'ip'] };

/** Reserves one signup (server/audit/limits.ts): the reservation's id, or null when the limit is reached. */
export function reserveSignup(db: Database, appId: string, ip: string): Promise<number | null> {
  return reserveAttempt(db, SIGNUP_LIMIT.type, { appId, ip, username: '' }, [SIGNUP_LIMIT]);
}
