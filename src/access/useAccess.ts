// Whether the signed-in user passes an access rule. The role comes from the access token; the plan
// from the workspace itself (GetTenant), since a token issued before a plan change still names the
// old one. Until everything the rule needs has loaded the answer is 'pending', never a guess.
import { useGraphQL } from '../api/react.tsx';
import { useAuthChanges } from '../runtime/context.tsx';
import { GetTenantDocument } from '../gql/graphql.ts';
import { allows, needsPlan, type AccessRule } from './rules.ts';
import type { Privilege } from '../../common/roles.ts';

export type AccessAnswer = 'pending' | 'allowed' | 'denied';

export function useAccess(rule: AccessRule): AccessAnswer {
  const auth = useAuthChanges();
  const authenticated = auth.isAuthenticated();
  const planNeeded = needsPlan(rule);
  const tenant = useGraphQL(GetTenantDocument, undefined, { enabled: authenticated && planNeeded });
  const noRule = !rule.roles?.length && !planNeeded;
  if (noRule) return 'allowed';
  if (!authenticated) return 'denied';
  if (planNeeded && tenant.isPending) return 'pending';
  const user = auth.currentUser();
  return allows(rule, { role: user.role, plan: tenant.data?.getTenant.plan }) ? 'allowed' : 'denied';
}

/** Whether the signed-in user's token grants a privilege (USER_WRITE, TENANT_WRITE …). */
export function useHasPrivilege(privilege: Privilege): boolean {
  const auth = useAuthChanges();
  return auth.isAuthenticated() && (auth.currentUser().privileges ?? []).includes(privilege);
}
