// What every module of the auth service (its route plugins and oidc-provider's) gets from
// server/auth/plugin.ts: one set of shared parts, built once per listener.
import type Provider from 'oidc-provider';
import type { FoyerContext } from '../context.ts';
import type { DeferredWork } from './deferred.ts';
import type { LoginSessions } from './login-session.ts';

export interface AuthServiceOptions {
  context: FoyerContext;
  provider: Provider;
  sessions: LoginSessions;
  /** Work finished after the answer is sent (mail), so timing tells nothing. */
  deferred: DeferredWork;
}
