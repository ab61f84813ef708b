import { describe, expect, it } from 'vitest';
import { refreshDelayMs } from './refresh.ts';

describe('when an access token is refreshed', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  const inSeconds = (seconds: number) => now / 1000 + seconds;

  it('is at 80 % of its remaining lifetime', () => {
    expect(refreshDelayMs(inSeconds(3600), now)).toBe(2880_000);
    expect(refreshDelayMs(inSeconds(10), now)).toBe(8_000);
  });

  it('is measured from when the tab learns of it: a tab opened late still refreshes before expiry', () => {
    // 100 s left of a one-hour token: 80 s from now, 20 s before it expires.
    expect(refreshDelayMs(inSeconds(100), now)).toBe(80_000);
  });

  it('is at once for a token that has expired', () => {
    expect(refreshDelayMs(inSeconds(-5), now)).toBe(0);
  });
});
