// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { safeReturnPath } from '../../../src/auth/return-path.ts';

const origin = 'http://ui.foyer.test';

describe('return paths', () => {
  it.each([
    ['/', '/'],
    ['/users?page=2#top', '/users?page=2#top'],
    ['/a/../b', '/b'],
    ['/search?q=%2F%2Fevil', '/search?q=%2F%2Fevil'],
  ])('keeps the same-origin path %j', (candidate, expected) => {
    expect(safeReturnPath(candidate, origin)).toBe(expected);
  });

  it.each([
    '//evil.test',
    '///evil.test',
    'http://evil.test/',
    'https:evil.test',
    'javascript:alert(1)',
    '/\\evil.test',
    '\\/evil.test',
    '/\t/evil.test',
    '/\n/evil.test',
    ' /users',
    'users',
    '',
    undefined,
    42,
  ])('rejects %j', (candidate) => {
    expect(safeReturnPath(candidate, origin)).toBeUndefined();
  });
});
