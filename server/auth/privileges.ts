// What each workspace role may do. Access tokens carry the role's privileges as their `scope`, and
// every GraphQL field and REST route names the privilege it needs (DESIGN.md "Multi-tenant rules").
import type { Role } from '../apps/settings.ts';

export const PRIVILEGES = ['AUTHENTICATED', 'USER_READ', 'USER_WRITE', 'TENANT_READ', 'TENANT_WRITE'] as const;
export type Privilege = (typeof PRIVILEGES)[number];

export const ROLES: readonly Role[] = ['OWNER', 'ADMIN', 'MANAGER', 'VIEWER'];

const privilegesByRole: Record<Role, readonly Privilege[]> = {
  OWNER: PRIVILEGES,
  ADMIN: PRIVILEGES,
  MANAGER: ['AUTHENTICATED', 'USER_READ', 'USER_WRITE', 'TENANT_READ'],
  VIEWER: ['AUTHENTICATED', 'USER_READ', 'TENANT_READ'],
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** The privileges of a role; an unknown role (a corrupt row) has none. */
export function privilegesOf(role: string): Privilege[] {
  return isRole(role) ? [...privilegesByRole[role]] : [];
}
