// @vitest-environment jsdom
// Access-token refresh at 80% of the remaining lifetime, with exactly one timer, driven by fake
// timers (the clock only moves when the test moves it).

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { refreshDelayMs } from '../../../src/auth/oauth/refresh-timer.ts';
import { StorageKeys } from '../../../src/auth/storage-keys.ts';
import { createHarness, type Harness } from './support/harness.ts';
import { TestAuthService } from './support/test-auth-service.ts';

const LIFETIME_S = 1000;
const EIGHTY_PERCENT_MS = 800_000;

let service: TestAuthService;
let harness: Harness;
const harnesses: Harness[] = [];

function track(created: Harness): Harness {
  harnesses.push(created);
  return created;
}

function refreshCalls(): number {
  return service.callsTo('/token').filter((call) => new URLSearchParams(call.body).get('grant_type') === 'refresh_token').length;
}

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: new Date('2026-01-01T00:00:00Z') });
  service = await TestAuthService.start();
  service.accessTokenLifetimeSeconds = LIFETIME_S;
  harness = track(createHarness(service));
  await harness.signIn();
});

afterEach(() => {
  for (const created of harnesses.splice(0)) created.client.clear();
  vi.useRealTimers();
});

describe('refresh delay', () => {
  it('is 80% of the remaining lifetime, never negative, and within setTimeout range', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(refreshDelayMs(now / 1000 + 1000, now)).toBe(800_000);
    expect(refreshDelayMs(now / 1000 + 100, now + 50_000)).toBe(40_000);
    expect(refreshDelayMs(now / 1000 - 10, now)).toBe(0);
    expect(refreshDelayMs(now / 1000 + 10 ** 9, now)).toBe(2 ** 31 - 1);
  });
});

describe('refresh scheduling', () => {
  it('holds exactly one timer after sign-in', () => {
    expect(harness.liveTimers()).toBe(1);
  });

  it('refreshes at 80% of the lifetime, then again at 80% of the new token, with one timer throughout', async () => {
    const firstAccess = harness.client.accessToken();

    await vi.advanceTimersByTimeAsync(EIGHTY_PERCENT_MS - 1);
    expect(refreshCalls()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(refreshCalls()).toBe(1);
    await harness.refreshSettled();
    expect(harness.liveTimers()).toBe(1);
    const secondAccess = harness.client.accessToken();
    expect(secondAccess).not.toBe(firstAccess);
    expect(localStorage.getItem(StorageKeys.oauthAccessToken)).toBe(secondAccess);

    await vi.advanceTimersByTimeAsync(EIGHTY_PERCENT_MS - 1);
    expect(refreshCalls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(refreshCalls()).toBe(2);
    await harness.refreshSettled();
    expect(harness.liveTimers()).toBe(1);
    expect(harness.client.isAuthenticated()).toBe(true);
  });

  it('keeps one timer when the session is restored again over a live one', async () => {
    await harness.client.init();
    await harness.client.init();
    expect(harness.liveTimers()).toBe(1);
  });

  it('logs out when a scheduled refresh fails', async () => {
    const notified = vi.fn();
    harness.client.subscribe(notified);
    service.revokeAllRefreshTokens();

    await vi.advanceTimersByTimeAsync(EIGHTY_PERCENT_MS);
    await harness.refreshSettled();

    expect(refreshCalls()).toBe(1);
    expect(harness.client.isAuthenticated()).toBe(false);
    expect(localStorage.getItem(StorageKeys.oauthRefreshToken)).toBeNull();
    expect(notified).toHaveBeenCalled();
    expect(harness.liveTimers()).toBe(0);
  });

  it('clears the timer on logout', async () => {
    await harness.client.logout();
    expect(harness.liveTimers()).toBe(0);
    await vi.advanceTimersByTimeAsync(EIGHTY_PERCENT_MS * 2);
    expect(refreshCalls()).toBe(0);
  });

  it('takes the tokens another tab rotated into storage instead of using its own dead refresh token', async () => {
    const held = localStorage.getItem(StorageKeys.oauthRefreshToken)!;
    await rotateAsOtherTab();

    await vi.advanceTimersByTimeAsync(EIGHTY_PERCENT_MS);
    await harness.refreshSettled();

    // Only the other tab ever sent the token this tab held.
    const sent = service.callsTo('/token').map((call) => new URLSearchParams(call.body).get('refresh_token'));
    expect(sent.filter((token) => token === held)).toHaveLength(1);
    expect(harness.client.isAuthenticated()).toBe(true);
    expect(harness.client.accessToken()).toBe(localStorage.getItem(StorageKeys.oauthAccessToken));
    expect(localStorage.getItem(StorageKeys.oauthRefreshToken)).not.toBe(held);
    expect(service.isRefreshTokenLive(localStorage.getItem(StorageKeys.oauthRefreshToken)!)).toBe(true);
  });

  it('takes the tokens of another tab that won a simultaneous rotation', async () => {
    harness.client.clear();
    const racing = track(
      createHarness(
        service,
        {},
        {
          // The other tab's refresh lands between this tab reading the refresh token and using it.
          fetch: async (input, init) => {
            if (new URLSearchParams(String(init?.body ?? '')).get('grant_type') === 'refresh_token') {
              await rotateAsOtherTab();
            }
            return service.fetch(input, init);
          },
        },
      ),
    );
    await racing.signIn();

    await vi.advanceTimersByTimeAsync(EIGHTY_PERCENT_MS);
    await racing.refreshSettled();

    expect(refreshCalls()).toBe(2);
    expect(racing.client.isAuthenticated()).toBe(true);
    expect(racing.client.accessToken()).toBe(localStorage.getItem(StorageKeys.oauthAccessToken));
    expect(service.isRefreshTokenLive(localStorage.getItem(StorageKeys.oauthRefreshToken)!)).toBe(true);
  });
});

describe('two tabs refreshing at once', () => {
  it('rotates once: the tab that waited for the shared lock takes the tokens the other one got', async () => {
    harness.client.clear();
    // The browser's Web Locks, which jsdom lacks: one holder per name at a time, in request order.
    const held = new Map<string, Promise<unknown>>();
    const exclusive = <T>(name: string, work: () => Promise<T>): Promise<T> => {
      const next = (held.get(name) ?? Promise.resolve()).then(work, work);
      held.set(
        name,
        next.catch(() => undefined),
      );
      return next;
    };
    const first = track(createHarness(service, {}, { exclusive }));
    await first.signIn();
    const second = track(createHarness(service, {}, { exclusive }));
    await second.client.init();
    expect(second.client.isAuthenticated()).toBe(true);

    await Promise.all([first.client.refresh(), second.client.refresh()]);

    expect(refreshCalls()).toBe(1);
    expect(second.client.accessToken()).toBe(first.client.accessToken());
    expect(service.isRefreshTokenLive(localStorage.getItem(StorageKeys.oauthRefreshToken)!)).toBe(true);
  });
});

describe('renewal before an API call', () => {
  it('refreshes an access token that expired while timers were not running (a sleeping laptop)', async () => {
    vi.setSystemTime(Date.now() + LIFETIME_S * 1000 + 1);
    await harness.client.ensureFresh();
    expect(refreshCalls()).toBe(1);
    expect(harness.client.isAuthenticated()).toBe(true);
    expect(harness.liveTimers()).toBe(1);
  });

  it('does nothing while the access token is still valid', async () => {
    await harness.client.ensureFresh();
    expect(refreshCalls()).toBe(0);
  });
});

/** What another tab's client does when its timer fires first: rotate and store the new tokens. */
async function rotateAsOtherTab(): Promise<string> {
  const response = await service.fetch(`${service.authUrl}/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: localStorage.getItem(StorageKeys.oauthRefreshToken)!,
      client_id: service.appId,
    }).toString(),
  });
  const answer = (await response.json()) as { access_token: string; refresh_token: string; id_token: string };
  localStorage.setItem(StorageKeys.oauthAccessToken, answer.access_token);
  localStorage.setItem(StorageKeys.oauthRefreshToken, answer.refresh_token);
  localStorage.setItem(StorageKeys.idToken, answer.id_token);
  return answer.refresh_token;
}
