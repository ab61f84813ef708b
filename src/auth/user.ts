// The user wrapper of docs/SPEC.md section 3: behaviour over CurrentUserData, plus the anonymous user.

import type { CurrentUserData } from './types.ts';

export const ANONYMOUS_USERNAME = 'ANONYMOUS';

/** docs/SPEC.md section 3's fallback user: what currentUser() answers when no one is signed in. */
export function fallbackUserData(): CurrentUserData {
  return {
    id: '',
    email: '',
    username: '',
    fullName: 'Unknown',
    role: '',
    onboarded: true,
    locale: 'en',
    tenant: { id: 'Dummy id' },
  };
}

export class User {
  readonly data: CurrentUserData;
  readonly authenticated: boolean;

  constructor(data: CurrentUserData, authenticated: boolean) {
    this.data = data;
    // The anonymous user is never authenticated, whatever the caller claims.
    this.authenticated = authenticated && data.username !== ANONYMOUS_USERNAME;
  }

  get id(): string {
    return this.data.id;
  }

  get username(): string {
    return this.data.username;
  }

  getRole(): string {
    return this.data.role;
  }

  /** The part of the username after the @ ('' when the username has none). */
  getDomain(): string {
    const at = this.data.username.lastIndexOf('@');
    return at === -1 ? '' : this.data.username.slice(at + 1);
  }

  isSameUser(other: User | CurrentUserData | null | undefined): boolean {
    if (!other) return false;
    return this.id !== '' && this.id === other.id;
  }

  /** True when the user holds the role, or one of the roles when given a list. */
  hasRole(roles: string | readonly string[]): boolean {
    const wanted = typeof roles === 'string' ? [roles] : roles;
    return this.data.role !== '' && wanted.includes(this.data.role);
  }

  hasNotRole(roles: string | readonly string[]): boolean {
    return !this.hasRole(roles);
  }

  static anonymous(): User {
    return new User({ ...fallbackUserData(), username: ANONYMOUS_USERNAME }, false);
  }
}
