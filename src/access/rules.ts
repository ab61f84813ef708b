// Role and plan gating as plain data checks (docs/SPEC.md section 6): content may require one of a role
// list and/or one of a plan list; both lists together require both; no list lets everyone through.
// Who may manage whom is the shared roles table (common/roles.ts), which the server enforces again on
// every mutation.

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
