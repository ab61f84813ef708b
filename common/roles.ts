// What each workspace role may do, written once as data, for the server (which enforces it) and the
// runtime and configurator (which only use it to decide what to show). Access tokens carry the role's
// privileges as their `scope`, and every GraphQL field and REST route names the privilege it needs.
// Who may act on which member, and which roles one may hand out, is the second table: the
// user-management mutations consult it and nothing else.
import type { Role } from './app-config.ts';

export type { Role };

/** From the most to the least powerful; also the order the users table sorts roles in. */
export const ROLES: readonly Role[] = ['OWNER', 'ADMIN', 'MANAGER', 'VIEWER'];

export const PRIVILEGES = ['AUTHENTICATED', 'USER_READ', 'USER_WRITE', 'TENANT_READ', 'TENANT_WRITE'] as const;
export type Privilege = (typeof PRIVILEGES)[number];

const privilegesByRole: Record<Role, readonly Privilege[]> = {
  OWNER: PRIVILEGES,
  ADMIN: PRIVILEGES,
  MANAGER: ['AUTHENTICATED', 'USER_READ', 'USER_WRITE', 'TENANT_READ'],
  VIEWER: ['AUTHENTICATED', 'USER_READ', 'TENANT_READ'],
};

interface MemberAuthority {
  /** Members holding one of these roles may be updated, disabled, deleted or sent a reset link. */
  manages: readonly Role[];
  /** Roles that may be given to a member (by updateUser, or as the role an invitation creates). */
  grants: readonly Role[];
}

/**
 * OWNER: everyone, every role. ADMIN: all but owners, and never OWNER. MANAGER: only managers and
 * viewers. VIEWER: nobody (it lacks USER_WRITE as well). Only an OWNER grants OWNER.
 */
const authorityByRole: Record<Role, MemberAuthority> = {
  OWNER: { manages: ROLES, grants: ROLES },
  ADMIN: { manages: ['ADMIN', 'MANAGER', 'VIEWER'], grants: ['ADMIN', 'MANAGER', 'VIEWER'] },
  MANAGER: { manages: ['MANAGER', 'VIEWER'], grants: ['MANAGER', 'VIEWER'] },
  VIEWER: { manages: [], grants: [] },
};

/** The role every workspace must keep at least one enabled member of. */
export const REQUIRED_ROLE: Role = 'OWNER';

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** The privileges of a role; an unknown role (a corrupt row) has none. */
export function privilegesOf(role: string): Privilege[] {
  return isRole(role) ? [...privilegesByRole[role]] : [];
}

/** Whether a member with role `actor` may change, disable, delete or reset a member with role `target`. */
export function mayManage(actor: string, target: string): boolean {
  return isRole(actor) && isRole(target) && authorityByRole[actor].manages.includes(target);
}

/** Whether a member with role `actor` may give `role` to someone. */
export function mayGrant(actor: string, role: string): boolean {
  return isRole(actor) && isRole(role) && authorityByRole[actor].grants.includes(role);
}

/** The roles of `offered` a member with role `actor` may hand out. */
export function grantableRoles(actor: string, offered: readonly string[]): string[] {
  return offered.filter((role) => mayGrant(actor, role));
}
