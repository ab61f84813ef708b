// The client configuration's redirect switches (docs/SPEC.md section 4, "Redirect helper").
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRedirect, DEBUG_REDIRECT_DELAY_MS } from '../../../src/runtime/redirect.ts';

function recorder() {
  const moves: string[] = [];
  const logged: string[] = [];
  const target = { assign: (url: string) => moves.push(`assign ${url}`), replace: (url: string) => moves.push(`replace ${url}`) };
  return { moves, logged, target, log: (message: string) => logged.push(message) };
}

afterEach(() => vi.useRealTimers());

describe('redirect helper', () => {
  it('moves at once by default', () => {
    const { moves, logged, target, log } = recorder();
    const redirect = createRedirect({ disableRedirects: false, debug: false }, target, log);
    redirect.assign('https://app.test/');
    redirect.replace('https://auth.test/authorize');
    expect(moves).toEqual(['assign https://app.test/', 'replace https://auth.test/authorize']);
    expect(logged).toEqual([]);
  });

  it('only logs where it would have gone when redirects are disabled', () => {
    vi.useFakeTimers();
    const { moves, logged, target, log } = recorder();
    createRedirect({ disableRedirects: true, debug: true }, target, log).replace('https://auth.test/authorize');
    vi.advanceTimersByTime(DEBUG_REDIRECT_DELAY_MS * 2);
    expect(moves).toEqual([]);
    expect(logged).toEqual(['Redirect (replace) to https://auth.test/authorize not followed: disableRedirects is set']);
  });

  it('waits three seconds in debug mode', () => {
    vi.useFakeTimers();
    const { moves, logged, target, log } = recorder();
    createRedirect({ disableRedirects: false, debug: true }, target, log).assign('https://app.test/');
    vi.advanceTimersByTime(DEBUG_REDIRECT_DELAY_MS - 1);
    expect(moves).toEqual([]);
    expect(logged).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(moves).toEqual(['assign https://app.test/']);
  });
});
