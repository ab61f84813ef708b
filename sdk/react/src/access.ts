// Role, plan and privilege gates: comfort for the host app's screens only. The app's own API must
// check the access token's `role`, `plan` and `scope` itself (docs/connecting-an-app.md).
import type { FoyerUser } from './claims.ts';

export interface AccessRule {
  /** Any of these roles passes; omitted or empty, every role does. */
  roles?: readonly string[];
  /** Any of these plan keys passes; omitted or empty, every plan does (none chosen included). */
  plans?: readonly string[];
  /** Every one of these privileges is needed. */
  privileges?: readonly string[];
}

/** Whether a signed-in user meets the rule; nobody signed in meets none. */
export function meetsRule(user: FoyerUser | null, rule: AccessRule): boolean {
  if (!user) return false;
  if (rule.roles?.length && !(user.role && rule.roles.includes(user.role))) return false;
  if (rule.plans?.length && !(user.tenant.plan && rule.plans.includes(user.tenant.plan))) return false;
  return (rule.privileges ?? []).every((privilege) => user.privileges.includes(privilege));
}

export interface Access {
  signedIn: boolean;
  hasRole(...roles: string[]): boolean;
  onPlan(...plans: string[]): boolean;
  hasPrivilege(privilege: string): boolean;
  allows(rule: AccessRule): boolean;
}

export function accessOf(user: FoyerUser | null): Access {
  return {
    signedIn: user !== null,
    hasRole: (...roles) => meetsRule(user, { roles }),
    onPlan: (...plans) => meetsRule(user, { plans }),
    hasPrivilege: (privilege) => meetsRule(user, { privileges: [privilege] }),
    allows: (rule) => meetsRule(user, rule),
  };
}
