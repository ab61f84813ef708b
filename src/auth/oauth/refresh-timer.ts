// The single access-token refresh timer: setting it always clears the previous one, so timers never
// stack (the original stacked one per refresh).

import type { BrowserRuntime, TimerHandle } from '../runtime.ts';

/** Refresh at this share of the access token's remaining lifetime (docs/SPEC.md section 9). */
export const REFRESH_AT_SHARE_OF_LIFETIME = 0.8;
/** setTimeout's largest delay; longer ones fire at once. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

export function refreshDelayMs(expiresAtSeconds: number, nowMs: number): number {
  const remaining = Math.max(0, expiresAtSeconds * 1000 - nowMs);
  return Math.min(MAX_TIMER_DELAY_MS, Math.floor(remaining * REFRESH_AT_SHARE_OF_LIFETIME));
}

export class RefreshTimer {
  private handle: TimerHandle | undefined;
  private readonly runtime: BrowserRuntime;

  constructor(runtime: BrowserRuntime) {
    this.runtime = runtime;
  }

  set(delayMs: number, task: () => void): void {
    this.cancel();
    this.handle = this.runtime.setTimeout(() => {
      this.handle = undefined;
      task();
    }, delayMs);
  }

  cancel(): void {
    if (this.handle !== undefined) this.runtime.clearTimeout(this.handle);
    this.handle = undefined;
  }

  get pending(): boolean {
    return this.handle !== undefined;
  }
}
