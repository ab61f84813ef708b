// Several tabs of a host app share one set of tokens (localStorage). One tab refreshes at a time,
// under a Web Lock; the others take its result, announced on a BroadcastChannel, as they take a
// sign-in or a sign-out done in another tab.

export type TabMessage = { type: 'signed-in' } | { type: 'refreshed' } | { type: 'signed-out' };

/** The part of the Web Locks API (navigator.locks) the SDK uses. */
export interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** The part of BroadcastChannel the SDK uses. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

function isTabMessage(value: unknown): value is TabMessage {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'signed-in' || type === 'refreshed' || type === 'signed-out';
}

export class TabCoordinator {
  constructor(
    private readonly lockName: string,
    private readonly channel: ChannelLike | undefined,
    private readonly locks: LockManagerLike | undefined,
  ) {}

  /** Runs `task` while no other tab of this app runs one (alone, where the browser has no Web Locks). */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    return this.locks ? this.locks.request(this.lockName, task) : task();
  }

  announce(message: TabMessage): void {
    this.channel?.postMessage(message);
  }

  onMessage(listener: (message: TabMessage) => void): void {
    this.channel?.addEventListener('message', (event) => {
      if (isTabMessage(event.data)) listener(event.data);
    });
  }

  close(): void {
    this.channel?.close();
  }
}

export interface StoredTokens {
  accessToken: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

export interface RefreshSteps<T extends StoredTokens> {
  /** The tokens all tabs share, read again inside the lock. */
  readStored(): Promise<T | null>;
  /** The token request; stores its answer where readStored finds it. */
  refresh(): Promise<T>;
}

export type RefreshOutcome<T> = { kind: 'refreshed'; tokens: T } | { kind: 'adopted'; tokens: T } | { kind: 'signed-out' };

/**
 * The refresh a tab's timer asks for, for the access token it scheduled on. Inside the lock, tokens
 * another tab stored meanwhile are taken as they are instead of being refreshed again (the rotated
 * refresh token this tab held would be a reuse).
 */
export async function coordinatedRefresh<T extends StoredTokens>(
  tabs: TabCoordinator,
  scheduledFor: string,
  nowMs: () => number,
  steps: RefreshSteps<T>,
): Promise<RefreshOutcome<T>> {
  const outcome = await tabs.exclusive(async (): Promise<RefreshOutcome<T>> => {
    const stored = await steps.readStored();
    if (!stored) return { kind: 'signed-out' };
    if (stored.accessToken !== scheduledFor && stored.expiresAt * 1000 > nowMs()) return { kind: 'adopted', tokens: stored };
    return { kind: 'refreshed', tokens: await steps.refresh() };
  });
  if (outcome.kind === 'refreshed') tabs.announce({ type: 'refreshed' });
  return outcome;
}
