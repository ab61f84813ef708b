// Role and plan gating as plain data checks (SPEC.md section 6): content may require one of a role
// list and/or one of a plan list; both lists together require both; no list lets everyone through.
// The member-authority table mirrors the server's (server/auth/privileges.ts) for comfort only: the
// server enforces it again on every mutation.

export interface AccessRule {
  /** The user must hold one of these roles (OWNER, ADMIN, MANAGER, VIEWER). */
  roles?: readonly string[];
  /** The workspace's plan must be one of these (FREEMIUM, ESSENTIAL, TEAM, BASIC …). */
  plans?: readonly string[];
}

export interface AccessFacts {
  role: string;
  /** Undefined while the plan is unknown (not loaded, or the workspace has none). */
  plan?: string | null;
}

export function needsPlan(rule: AccessRule): boolean {
  return (rule.plans?.length ?? 0) > 0;
}

export function allows(rule: AccessRule, facts: AccessFacts): boolean {
  const roleHeld = !rule.roles?.length || (facts.role !== '' && rule.roles.includes(facts.role));
  const planHeld = !needsPlan(rule) || (typeof facts.plan === 'string' && rule.plans!.includes(facts.plan));
  return roleHeld && planHeld;
}

/** From the most to the least powerful. */
export const ROLES = ['OWNER', 'ADMIN', 'MANAGER', 'VIEWER'] as const;

const authority: Record<string, { manages: readonly string[]; grants: readonly string[] }> = {
  OWNER: { manages: ROLES, grants: ROLES },
  ADMIN: { manages: ['ADMIN', 'MANAGER', 'VIEWER'], grants: ['ADMIN', 'MANAGER', 'VIEWER'] },
  MANAGER: { manages: ['MANAGER', 'VIEWER'], grants: ['MANAGER', 'VIEWER'] },
  VIEWER: { manages: [], grants: [] },
};

/** Whether a member with role `actor` may edit, reset or delete a member with role `target`. */
export function mayManage(actor: string, target: string): boolean {
  return authority[actor]?.manages.includes(target) ?? false;
}

/** The roles of `offered` a member with role `actor` may hand out. */
export function grantableRoles(actor: string, offered: readonly string[]): string[] {
  const grants = authority[actor]?.grants ?? [];
  return offered.filter((role) => grants.includes(role));
}

/** Privileges are the access token's scope (server/auth/privileges.ts names them). */
export const USER_WRITE = 'USER_WRITE';
export const TENANT_WRITE = 'TENANT_WRITE';
