// What Foyer tells apps about the person signed in: the OpenID scopes it grants and the claims each
// releases, in the ID token and at the userinfo endpoint alike (docs/ORIGINAL-CONTRACT.md 2.4).
import { fullNameOf, type AccountMembership } from '../memberships.ts';

export const SCOPES = ['openid', 'profile', 'email'] as const;
export const DEFAULT_SCOPE = SCOPES.join(' ');

/** The OpenID claims of a membership, for the ID token and the userinfo endpoint alike. */
export function accountClaimsOf(membership: AccountMembership, workspaceCount: number) {
  const { user, tenant } = membership;
  return {
    sub: membership.id,
    email: user.email,
    // No verification flow exists yet; a later issue sets this from a verified link.
    email_verified: false,
    name: fullNameOf(user),
    given_name: user.firstName ?? undefined,
    family_name: user.lastName ?? undefined,
    preferred_username: user.email,
    locale: user.locale ?? tenant.locale,
    onboarded: user.onboarded,
    role: membership.role,
    tenant_id: tenant.id,
    tenant_name: tenant.name,
    tenant_locale: tenant.locale,
    tenant_logo: tenant.logo ?? undefined,
    tenant_onboarded: tenant.onboarded,
    multi_tenant: workspaceCount > 1,
  };
}

/** Which claims each OpenID scope releases (ID token and userinfo). */
export const CLAIMS_BY_SCOPE = {
  openid: ['sub', 'onboarded', 'role', 'tenant_id', 'tenant_name', 'tenant_locale', 'tenant_logo', 'tenant_onboarded', 'multi_tenant'],
  profile: ['name', 'given_name', 'family_name', 'preferred_username', 'locale'],
  email: ['email', 'email_verified'],
} satisfies Record<(typeof SCOPES)[number], string[]>;
