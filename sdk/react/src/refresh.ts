// When to refresh: at 80 % of the access token's remaining lifetime (docs/SPEC.md sections 4 and 9),
// measured from when this tab learned of the token, so a tab opened later still refreshes in time.

export const REFRESH_AT_FRACTION = 0.8;

/** Milliseconds from `nowMs` until the refresh of a token that expires at `expiresAtSeconds`. */
export function refreshDelayMs(expiresAtSeconds: number, nowMs: number): number {
  const remaining = expiresAtSeconds * 1000 - nowMs;
  return Math.max(0, Math.floor(remaining * REFRESH_AT_FRACTION));
}
