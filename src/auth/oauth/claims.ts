// docs/SPEC.md section 3 "Current user (OAuth mode, from token claims)": profile from the ID token, role
// (and plan) from the access token.

import type { JWTPayload } from 'jose';
import type { CurrentUserData } from '../types.ts';

function text(claims: JWTPayload, name: string): string | undefined {
  const value = claims[name];
  return typeof value === 'string' ? value : undefined;
}

export function userFromClaims(idClaims: JWTPayload, accessClaims: JWTPayload): CurrentUserData {
  const email = text(idClaims, 'email') ?? '';
  const onboarded = idClaims.onboarded;
  const tenantOnboarded = idClaims.tenant_onboarded;
  return {
    id: idClaims.sub ?? '',
    email,
    username: text(idClaims, 'preferred_username') ?? text(idClaims, 'username') ?? email,
    fullName: text(idClaims, 'name') ?? '',
    role: text(accessClaims, 'role') ?? '',
    onboarded: typeof onboarded === 'boolean' ? onboarded : true,
    locale: text(idClaims, 'locale') ?? text(idClaims, 'tenant_locale') ?? 'en',
    plan: text(accessClaims, 'plan'),
    privileges: text(accessClaims, 'scope')?.split(' ').filter(Boolean),
    tenant: {
      id: text(idClaims, 'tenant_id') ?? '',
      name: text(idClaims, 'tenant_name'),
      locale: text(idClaims, 'tenant_locale'),
      logo: text(idClaims, 'tenant_logo'),
      onboarded: typeof tenantOnboarded === 'boolean' ? tenantOnboarded : undefined,
    },
  };
}
