// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { CurrentUserData } from '../../../src/auth/types.ts';
import { ANONYMOUS_USERNAME, User, fallbackUserData } from '../../../src/auth/user.ts';

function userData(overrides: Partial<CurrentUserData> = {}): CurrentUserData {
  return {
    id: 'tenant-user-1',
    email: 'admin@acme.demo.foyer.test',
    username: 'admin@acme.demo.foyer.test',
    fullName: 'Ada Admin',
    role: 'ADMIN',
    onboarded: true,
    locale: 'en',
    tenant: { id: 'tenant-acme', name: 'Acme' },
    ...overrides,
  };
}

describe('user wrapper', () => {
  const admin = new User(userData(), true);

  it('answers the role', () => {
    expect(admin.getRole()).toBe('ADMIN');
  });

  it('answers the domain: the part of the username after the @', () => {
    expect(admin.getDomain()).toBe('acme.demo.foyer.test');
    expect(new User(userData({ username: 'no-at-sign' }), true).getDomain()).toBe('');
  });

  it('compares users by id', () => {
    expect(admin.isSameUser(new User(userData({ fullName: 'Renamed', role: 'VIEWER' }), true))).toBe(true);
    expect(admin.isSameUser(userData({ id: 'tenant-user-1' }))).toBe(true);
    expect(admin.isSameUser(new User(userData({ id: 'tenant-user-2' }), true))).toBe(false);
    expect(admin.isSameUser(undefined)).toBe(false);
  });

  it('never takes two unknown users for the same one', () => {
    const nobody = new User(fallbackUserData(), false);
    expect(nobody.isSameUser(new User(fallbackUserData(), false))).toBe(false);
  });

  it('checks one role or a list of roles', () => {
    expect(admin.hasRole('ADMIN')).toBe(true);
    expect(admin.hasRole(['OWNER', 'ADMIN'])).toBe(true);
    expect(admin.hasRole(['OWNER', 'MANAGER'])).toBe(false);
    expect(admin.hasNotRole('VIEWER')).toBe(true);
    expect(admin.hasNotRole(['ADMIN'])).toBe(false);
  });

  it('gives a user without a role no role', () => {
    const roleless = new User(userData({ role: '' }), true);
    expect(roleless.hasRole('')).toBe(false);
    expect(roleless.hasNotRole(['OWNER', 'ADMIN', 'MANAGER', 'VIEWER'])).toBe(true);
  });
});

describe('anonymous user', () => {
  it('is named ANONYMOUS and never authenticated', () => {
    const anonymous = User.anonymous();
    expect(anonymous.username).toBe(ANONYMOUS_USERNAME);
    expect(anonymous.authenticated).toBe(false);
    expect(new User({ ...userData(), username: ANONYMOUS_USERNAME }, true).authenticated).toBe(false);
  });
});

describe('fallback user', () => {
  it('matches docs/SPEC.md section 3', () => {
    expect(fallbackUserData()).toEqual({
      id: '',
      email: '',
      username: '',
      fullName: 'Unknown',
      role: '',
      onboarded: true,
      locale: 'en',
      tenant: { id: 'Dummy id' },
    });
  });
});
