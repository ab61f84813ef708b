// The time trials and subscription periods run on. Production reads the system clock; tests move
// this one forward to see a trial run out or a cancelled plan end at its period's end.
export class PaymentClock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Moves the clock forward (tests and the development test-mode provider only). */
  advance(ms: number): void {
    if (!(ms > 0)) throw new Error('The payment clock only moves forward');
    this.offsetMs += ms;
  }
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** When a period that starts at `from` ends, for a price's recurrence interval. */
export function periodEnd(from: Date, interval: string): Date {
  const end = new Date(from);
  if (interval === 'day') end.setUTCDate(end.getUTCDate() + 1);
  else if (interval === 'week') end.setUTCDate(end.getUTCDate() + 7);
  else if (interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}
