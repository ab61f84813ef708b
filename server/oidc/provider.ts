// Foyer's authorization server: oidc-provider configured for public browser clients (the apps),
// authorization code with PKCE S256, rotating refresh tokens, RS256 JWT access tokens whose
// audience is the app, and Foyer's login screens as the interaction UI.
import Provider, {
  errors,
  interactionPolicy,
  type Account,
  type AccessToken,
  type ClientCredentials,
  type Configuration,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import type { FoyerContext } from '../context.ts';
import { ERROR_PAGE_PATH, isNavigation } from '../http/errors.ts';
import { privilegesOf, PRIVILEGES } from '../auth/privileges.ts';
import { countEnabledMemberships, findEnabledMembership, fullNameOf, type Membership } from '../auth/memberships.ts';
import { createAdapterFactory } from './adapter.ts';
import { loadSigningKeys } from './keys.ts';
import { recordAudit } from '../audit/service.ts';

export const SCOPES = ['openid', 'profile', 'email'] as const;
export const DEFAULT_SCOPE = SCOPES.join(' ');

/** How long oidc-provider remembers who signed in on this browser (single sign-on). */
export const SSO_SESSION_TTL_SECONDS = 24 * 60 * 60;
const INTERACTION_TTL_SECONDS = 60 * 60;
const AUTHORIZATION_CODE_TTL_SECONDS = 60;

/** Each app is one resource server; its access tokens carry the app id as audience. */
export function appResource(appId: string): string {
  return `urn:foyer:app:${appId}`;
}

/** The interaction UI lives on the auth origin first (it needs the interaction cookie), then the hosted UI. */
export function interactionPath(uid: string): string {
  return `/interaction/${uid}`;
}

export interface FoyerAccount extends Account {
  membership: Membership;
}

// A tenant user is the account: `sub` is the membership id, so every token names one workspace.
async function loadAccount(context: FoyerContext, ctx: KoaContextWithOIDC, tenantUserId: string) {
  const appId = ctx.oidc.client?.clientId;
  const membership = await findEnabledMembership(context.db, tenantUserId, appId ? { appId } : {});
  if (!membership) return undefined;
  const workspaceCount = await countEnabledMemberships(context.db, membership.user.id);
  const { user, tenant } = membership;
  const account: FoyerAccount = {
    accountId: membership.id,
    membership,
    claims: () => ({
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
      tenant_id: tenant.id,
      tenant_name: tenant.name,
      tenant_locale: tenant.locale,
      tenant_logo: tenant.logo ?? undefined,
      tenant_onboarded: tenant.onboarded,
      multi_tenant: workspaceCount > 1,
    }),
  };
  return account;
}

/** An app's token lifetime, carried as extra client metadata (see clientMetadataOf). */
function clientTtl(client: unknown, name: 'access_token_ttl' | 'refresh_token_ttl', fallback: number) {
  const value = (client as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : fallback;
}

/** The membership behind a token: the one findAccount just loaded for this request, or a fresh read. */
async function membershipFor(context: FoyerContext, ctx: KoaContextWithOIDC, token: AccessToken | ClientCredentials) {
  const accountId = 'accountId' in token ? token.accountId : undefined;
  if (!accountId) return undefined;
  const loaded = ctx.oidc.account as FoyerAccount | undefined;
  if (loaded?.accountId === accountId && loaded.membership) return loaded.membership;
  return (await loadAccount(context, ctx, accountId))?.membership;
}

function buildPolicy() {
  const policy = interactionPolicy.base();
  // The SSO session may name a membership that has since been disabled or deleted: sign in again.
  policy.get('login')!.checks.add(
    new interactionPolicy.Check(
      'membership_unavailable',
      'the signed-in workspace membership is no longer available',
      'login_required',
      (ctx) => Boolean(ctx.oidc.session?.accountId && !ctx.oidc.account),
    ),
  );
  return policy;
}

export async function createOidcProvider(context: FoyerContext): Promise<Provider> {
  const { config, db } = context;
  const keys = await loadSigningKeys(db);

  const configuration: Configuration = {
    adapter: createAdapterFactory(db, config.secret),
    jwks: { keys: keys.privateJwks as NonNullable<Configuration['jwks']>['keys'] },
    findAccount: (ctx, sub) => loadAccount(context, ctx, sub),
    cookies: { keys: [config.secret] },
    scopes: [...SCOPES],
    claims: {
      openid: ['sub', 'onboarded', 'tenant_id', 'tenant_name', 'tenant_locale', 'tenant_logo', 'tenant_onboarded', 'multi_tenant'],
      profile: ['name', 'given_name', 'family_name', 'preferred_username', 'locale'],
      email: ['email', 'email_verified'],
    },
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'RS256',
    },
    extraClientMetadata: {
      properties: ['access_token_ttl', 'refresh_token_ttl'],
      validator(_ctx, key, value) {
        if (value !== undefined && !(typeof value === 'number' && Number.isSafeInteger(value) && value > 0)) {
          throw new errors.InvalidClientMetadata(`${key} must be a positive integer`);
        }
      },
    },
    extraParams: ['signup', 'force_federation'],
    routes: {
      authorization: '/authorize',
      token: '/token',
      jwks: '/.well-known/jwks.json',
      revocation: '/token/revocation',
      end_session: '/session/end',
      userinfo: '/me',
    },
    features: {
      devInteractions: { enabled: false },
      // An app may revoke only the tokens issued to it.
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      rpInitiatedLogout: { enabled: true },
      // Every access token is an app-audience JWT, which a userinfo endpoint cannot accept; the ID
      // token carries the profile instead.
      userinfo: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, client) => appResource(client.clientId),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator, client) => {
          if (indicator !== appResource(client.clientId)) throw new errors.InvalidTarget();
          return {
            scope: PRIVILEGES.join(' '),
            audience: client.clientId,
            accessTokenTTL: clientTtl(client, 'access_token_ttl', 3600),
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    interactions: {
      policy: buildPolicy(),
      url: (_ctx, interaction) => interactionPath(interaction.uid),
    },
    // Refresh tokens live their own lifetime (the app's), not the browser's SSO session; logout
    // revokes them explicitly.
    expiresWithSession: () => false,
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Every use of a refresh token replaces it; presenting a replaced one revokes the whole grant.
    rotateRefreshToken: true,
    allowOmittingSingleRegisteredRedirectUri: false,
    ttl: {
      AccessToken: (_ctx, _token, client) => clientTtl(client, 'access_token_ttl', 3600),
      AuthorizationCode: AUTHORIZATION_CODE_TTL_SECONDS,
      // Outlives every refresh token issued under it; Foyer code saving a Grant sets its client first.
      Grant: (_ctx, grant) => clientTtl((grant as { client?: unknown }).client, 'refresh_token_ttl', 604800),
      IdToken: (_ctx, _token, client) => clientTtl(client, 'access_token_ttl', 3600),
      Interaction: INTERACTION_TTL_SECONDS,
      Session: SSO_SESSION_TTL_SECONDS,
      RefreshToken: (ctx, token, client) => {
        // Rotation never extends a browser client's session: the replacement keeps the remaining time.
        const rotated = ctx?.oidc.entities.RotatedRefreshToken;
        if (rotated && !token.isSenderConstrained()) return Math.max(rotated.remainingTTL, 1);
        return clientTtl(client, 'refresh_token_ttl', 604800);
      },
    },
    extraTokenClaims: async (ctx, token) => {
      const membership = await membershipFor(context, ctx, token);
      if (!membership) return undefined;
      return {
        aid: membership.appId,
        tid: membership.tenant.id,
        role: membership.role,
        email: membership.user.email,
        ...(membership.tenant.plan ? { plan: membership.tenant.plan } : {}),
      };
    },
    formats: {
      customizers: {
        // The scope is the role's privileges at issuance, so a refresh reflects a changed role.
        jwt: (_ctx, token, parts) => {
          const role = token.extra?.role;
          const scope = privilegesOf(typeof role === 'string' ? role : '').join(' ');
          parts.payload.scope = scope;
          token.scope = scope;
        },
      },
    },
    clientBasedCORS: () => true,
    // A failed authorization request that cannot go back to the app: a person sees the hosted error
    // page, a script gets Foyer's error shape.
    renderError: (ctx, out) => {
      if (isNavigation(ctx.req)) {
        ctx.redirect(`${config.urls.ui}${ERROR_PAGE_PATH}?${new URLSearchParams({ error: String(out.error) }).toString()}`);
        return;
      }
      ctx.body = { statusCode: ctx.status, error: out.error, message: out.error_description ?? out.error };
    },
  };

  const provider = new Provider(config.urls.auth, configuration);
  // Behind a configured TLS-terminating proxy the forwarded protocol decides whether cookies are Secure.
  provider.proxy = config.trustProxy.length > 0;
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.oidc?.route === 'token') await auditTokenAnswer(context, ctx as KoaContextWithOIDC);
  });
  return provider;
}

/** Token issues and refresh-token reuse land in the audit trail before the answer leaves. */
async function auditTokenAnswer(context: FoyerContext, ctx: KoaContextWithOIDC) {
  const { entities } = ctx.oidc;
  const account = entities.Account as FoyerAccount | undefined;
  const event = {
    appId: entities.Client?.clientId,
    userId: account?.membership.user.id,
    tenantUserId: account?.accountId,
    ip: ctx.ip,
  };
  if (ctx.status === 200) {
    await recordAudit(context.db, { ...event, type: 'token.issued', detail: { grantType: ctx.oidc.params?.grant_type } });
  } else if (entities.RefreshToken?.consumed) {
    // A replaced refresh token came back: oidc-provider has just revoked its whole grant.
    await recordAudit(context.db, { ...event, type: 'token.refresh_reuse', detail: { grantId: entities.RefreshToken.grantId } });
  }
}
