// The signed-in person as docs/SPEC.md section 3 describes the current user (OAuth mode): read from the
// ID token's claims (server/auth/oidc/claims.ts) and the access token's role, plan and privileges.
import { isRole, type Role } from '../../../common/roles.ts';

export interface FoyerTenant {
  id: string;
  name: string;
  locale: string;
  logo: string | null;
  /** The workspace's plan key (FREEMIUM, TEAM, …), from the access token; null before one is chosen. */
  plan: string | null;
  onboarded: boolean;
}

export interface FoyerUser {
  /** The workspace membership (the tokens' `sub`). */
  id: string;
  email: string;
  /** The e-mail, as the original product's user has it. */
  username: string;
  fullName: string;
  onboarded: boolean;
  /** The role in the signed-in workspace; null when the token names a role this SDK does not know. */
  role: Role | null;
  /** The role's privileges (the access token's `scope`). */
  privileges: string[];
  tenant: FoyerTenant;
  /** Whether the person belongs to more than one workspace of the app (switchWorkspace() has a choice). */
  multiTenant: boolean;
}

type Claims = Record<string, unknown>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const textOrNull = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The payload of a JWT, unverified: the SDK only reads what its own token endpoint just answered. */
export function decodeJwtPayload(token: string): Claims {
  const part = token.split('.')[1];
  if (!part) throw new Error('Not a JWT');
  const base64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
  if (!payload || typeof payload !== 'object') throw new Error('Not a JWT');
  return payload as Claims;
}

/** The current user from the ID token's claims and the access token's claims. */
export function currentUserOf(idClaims: Claims, accessClaims: Claims): FoyerUser {
  const role = text(accessClaims.role) || text(idClaims.role);
  const email = text(idClaims.email) || text(accessClaims.email);
  return {
    id: text(idClaims.sub),
    email,
    username: text(idClaims.preferred_username) || email,
    fullName: text(idClaims.name) || text(accessClaims.name),
    onboarded: idClaims.onboarded !== false,
    role: isRole(role) ? role : null,
    privileges: text(accessClaims.scope).split(' ').filter(Boolean),
    tenant: {
      id: text(idClaims.tenant_id) || text(accessClaims.tid),
      name: text(idClaims.tenant_name),
      locale: text(idClaims.tenant_locale) || 'en',
      logo: textOrNull(idClaims.tenant_logo),
      plan: textOrNull(accessClaims.plan),
      onboarded: idClaims.tenant_onboarded !== false,
    },
    multiTenant: idClaims.multi_tenant === true,
  };
}
