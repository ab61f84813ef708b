// At most ten workspaces per app and client address an hour: each signup mails a link, so the limit
// caps the mail any one address can make Foyer send. Counted by the shared audit-trail limiter.
import type { Database } from '../../db/client.ts';
import { isOverLimit, type Limit } from '../../audit/limits.ts';

export const SIGNUP_LIMIT: Limit = { type: 'tenant.signup', max: 10, windowMinutes: 60, per: ['app', 'ip'] };

export function isSignupThrottled(db: Database, appId: string, ip: string): Promise<boolean> {
  return isOverLimit(db, SIGNUP_LIMIT, { appId, ip, username: '' });
}
