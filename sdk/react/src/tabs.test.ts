// One tab refreshes, the others take its result: two tabs' coordinators on one BroadcastChannel name,
// under one lock, with one shared token store.
import { afterEach, describe, expect, it } from 'vitest';
import { coordinatedRefresh, TabCoordinator, type LockManagerLike, type StoredTokens, type TabMessage } from './tabs.ts';

/** navigator.locks as one browser gives it to all tabs of an origin (Node has none): one holder per name. */
function sharedLocks(): LockManagerLike {
  const tails = new Map<string, Promise<unknown>>();
  return {
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      const previous = tails.get(name) ?? Promise.resolve();
      const run = previous.then(callback, callback);
      tails.set(
        name,
        run.catch(() => undefined),
      );
      return run;
    },
  };
}

const opened: TabCoordinator[] = [];
afterEach(() => opened.splice(0).forEach((tab) => tab.close()));

function tab(locks: LockManagerLike): { coordinator: TabCoordinator; received: TabMessage[] } {
  const coordinator = new TabCoordinator('foyer-refresh:app', new BroadcastChannel('foyer:app-test'), locks);
  const received: TabMessage[] = [];
  coordinator.onMessage((message) => received.push(message));
  opened.push(coordinator);
  return { coordinator, received };
}

const now = () => Date.parse('2026-01-01T00:00:00Z');
const seconds = (ms: number) => Math.floor(ms / 1000);

describe('a refresh due in two tabs at once', () => {
  it('is made by one tab; the other takes the tokens it stored and both hear of it', async () => {
    const locks = sharedLocks();
    const first = tab(locks);
    const second = tab(locks);
    let stored: StoredTokens = { accessToken: 'old', expiresAt: seconds(now()) + 60 };
    let requests = 0;
    const steps = {
      readStored: async () => stored,
      refresh: async () => {
        requests += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        stored = { accessToken: `new-${requests}`, expiresAt: seconds(now()) + 3600 };
        return stored;
      },
    };

    const [a, b] = await Promise.all([
      coordinatedRefresh(first.coordinator, 'old', now, steps),
      coordinatedRefresh(second.coordinator, 'old', now, steps),
    ]);

    expect(requests).toBe(1);
    expect(a).toEqual({ kind: 'refreshed', tokens: { accessToken: 'new-1', expiresAt: stored.expiresAt } });
    expect(b).toEqual({ kind: 'adopted', tokens: { accessToken: 'new-1', expiresAt: stored.expiresAt } });
    await expect.poll(() => second.received).toEqual([{ type: 'refreshed' }]);
    // A channel does not deliver to the tab that posted.
    expect(first.received).toEqual([]);
  });

  it('refreshes again when what another tab stored has expired as well', async () => {
    const only = tab(sharedLocks());
    let requests = 0;
    const outcome = await coordinatedRefresh(only.coordinator, 'mine', now, {
      readStored: async () => ({ accessToken: 'someone-elses', expiresAt: seconds(now()) - 1 }),
      refresh: async () => {
        requests += 1;
        return { accessToken: 'fresh', expiresAt: seconds(now()) + 3600 };
      },
    });
    expect(requests).toBe(1);
    expect(outcome.kind).toBe('refreshed');
  });

  it('ends in signed-out when another tab signed out meanwhile (nothing stored), without a token request', async () => {
    const only = tab(sharedLocks());
    let requests = 0;
    const outcome = await coordinatedRefresh(only.coordinator, 'mine', now, {
      readStored: async () => null,
      refresh: async () => {
        requests += 1;
        return { accessToken: 'x', expiresAt: 0 };
      },
    });
    expect(outcome).toEqual({ kind: 'signed-out' });
    expect(requests).toBe(0);
  });

  it('lets the next tab in after a refresh that failed', async () => {
    const locks = sharedLocks();
    const failing = tab(locks);
    const next = tab(locks);
    const stored: StoredTokens = { accessToken: 'old', expiresAt: seconds(now()) + 60 };
    await expect(
      coordinatedRefresh(failing.coordinator, 'old', now, {
        readStored: async () => stored,
        refresh: () => Promise.reject(new Error('offline')),
      }),
    ).rejects.toThrow('offline');
    const outcome = await coordinatedRefresh(next.coordinator, 'old', now, {
      readStored: async () => stored,
      refresh: async () => ({ accessToken: 'new', expiresAt: seconds(now()) + 3600 }),
    });
    expect(outcome.kind).toBe('refreshed');
  });
});

describe('messages between tabs', () => {
  it('passes sign-in, refresh and sign-out on and ignores anything else on the channel', async () => {
    const locks = sharedLocks();
    const sender = tab(locks);
    const listener = tab(locks);
    const stranger = new BroadcastChannel('foyer:app-test');
    stranger.postMessage({ type: 'something-else' });
    stranger.postMessage('signed-out');
    stranger.close();
    sender.coordinator.announce({ type: 'signed-in' });
    sender.coordinator.announce({ type: 'signed-out' });
    await expect.poll(() => listener.received).toEqual([{ type: 'signed-in' }, { type: 'signed-out' }]);
  });
});
