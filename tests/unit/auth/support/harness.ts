// Wires an OAuth auth client to the test auth service, with navigations recorded instead of made.

import type { ClientConfig } from '../../../../src/config.ts';
import { defaultConfig } from '../../../../src/config.ts';
import { OAuthClient } from '../../../../src/auth/oauth/oauth-client.ts';
import { browserRuntime, type BrowserRuntime, type TimerHandle } from '../../../../src/auth/runtime.ts';
import type { AuthClient } from '../../../../src/auth/types.ts';
import { defaultTestUser, type TestAuthService, type TestUser } from './test-auth-service.ts';

export interface Harness {
  client: AuthClient;
  config: ClientConfig;
  redirects: string[];
  runtime: BrowserRuntime;
  /** Timers the client has set that have neither fired nor been cleared. */
  liveTimers(): number;
  /**
   * Waits (on real I/O turns, not on the fake clock) until a fired refresh has finished: the
   * client has scheduled its next refresh, or it has logged out.
   */
  refreshSettled(): Promise<void>;
  /** Login → auth service issues a code for the challenge → callback; answers the callback's path. */
  signIn(returnPath?: string, user?: TestUser): Promise<string>;
}

export const uiUrl = 'http://ui.foyer.test';

export function createHarness(
  service: TestAuthService,
  overrides: Partial<ClientConfig> = {},
  runtimeOverrides: Partial<BrowserRuntime> = {},
): Harness {
  const redirects: string[] = [];
  const live = new Set<TimerHandle>();
  const config: ClientConfig = { ...defaultConfig, appId: service.appId, authUrl: service.authUrl, uiUrl, ...overrides };
  const runtime: BrowserRuntime = {
    ...browserRuntime(),
    localStorage: globalThis.localStorage,
    sessionStorage: globalThis.sessionStorage,
    fetch: service.fetch,
    redirect: (url) => redirects.push(url),
    setTimeout: (callback, delayMs) => {
      const handle: TimerHandle = globalThis.setTimeout(() => {
        live.delete(handle);
        callback();
      }, delayMs);
      live.add(handle);
      return handle;
    },
    clearTimeout: (handle) => {
      live.delete(handle);
      globalThis.clearTimeout(handle);
    },
    ...runtimeOverrides,
  };
  const client = new OAuthClient(config, runtime);
  return {
    client,
    config,
    redirects,
    runtime,
    liveTimers: () => live.size,
    async refreshSettled() {
      // A deadline on the real clock (performance is not faked): token checks run real crypto,
      // which takes longer on a loaded machine.
      const deadline = performance.now() + 10_000;
      while (performance.now() < deadline) {
        if (live.size > 0 || !client.isAuthenticated()) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
      throw new Error('The refresh did not settle');
    },
    async signIn(returnPath, user = defaultTestUser) {
      await client.login(returnPath);
      const { code, state } = service.issueCode(redirects.at(-1)!, user);
      return client.handleCallback(new URLSearchParams({ code, state }));
    },
  };
}
