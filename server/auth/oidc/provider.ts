// Foyer's authorization server: oidc-provider configured for public browser clients (the apps),
// authorization code with PKCE S256, rotating refresh tokens, RS256 JWT access tokens whose
// audience is the app, and Foyer's login screens as the interaction UI.
import compress from 'koa-compress';
import Provider, {
  errors,
  interactionPolicy,
  type Account,
  type AccessToken,
  type ClientCredentials,
  type Configuration,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import type { FoyerContext } from '../../context.ts';
import { ERROR_PAGE_PATH, isNavigation } from '../../http/errors.ts';
import { privilegesOf, PRIVILEGES } from '../../../common/roles.ts';
import { countedMembershipOf, findEnabledMembershipCounted, fullNameOf, type AccountMembership } from '../memberships.ts';
import { accountClaimsOf, CLAIMS_BY_SCOPE, SCOPES } from './claims.ts';
import { createAdapterFactory, takeReadAheadAccount, withReadAhead } from './adapter.ts';
import { withWriteBatch } from '../../db/write-batch.ts';
import { appResource } from '../access-tokens.ts';
import { loadSigningKeys } from '../signing-keys.ts';
import { recordAudit } from '../../audit/service.ts';
import { confidentialAuthMethods } from '../../../common/app-config.ts';
import { confirmSignOut, toLoginAfterLogout } from './logout.ts';
import { USERINFO_PATH } from './userinfo.ts';

/** How long oidc-provider remembers who signed in on this browser (single sign-on). */
export const SSO_SESSION_TTL_SECONDS = 24 * 60 * 60;
const INTERACTION_TTL_SECONDS = 60 * 60;
const AUTHORIZATION_CODE_TTL_SECONDS = 60;

/** The interaction UI lives on the auth origin first (it needs the interaction cookie), then the hosted UI. */
export function interactionPath(uid: string): string {
  return `/interaction/${uid}`;
}

export interface FoyerAccount extends Account {
  membership: AccountMembership;
}

// A tenant user is the account: `sub` is the membership id, so every token names one workspace.
async function loadAccount(context: FoyerContext, ctx: KoaContextWithOIDC, tenantUserId: string) {
  const appId = ctx.oidc.client?.clientId;
  const expect = appId ? { appId } : {};
  const readAhead = takeReadAheadAccount(tenantUserId);
  const found = readAhead ? countedMembershipOf(readAhead, expect) : await findEnabledMembershipCounted(context.db, tenantUserId, expect);
  if (!found) return undefined;
  const { membership, workspaceCount } = found;
  const claims = accountClaimsOf(membership, workspaceCount);
  const account: FoyerAccount = { accountId: membership.id, membership, claims: () => claims };
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
  policy
    .get('login')!
    .checks.add(
      new interactionPolicy.Check(
        'membership_unavailable',
        'the signed-in workspace membership is no longer available',
        'login_required',
        (ctx) => Boolean(ctx.oidc.session?.accountId && !ctx.oidc.account),
      ),
    );
  // prompt=select_account (OpenID Connect Core 3.1.2.1): an app asks which workspace to continue in,
  // with the person signed in already. Answered by the hosted workspace picker (interactions.ts).
  policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }), 1);
  return policy;
}

const TOKEN_PATH = '/token';

const PROVIDER_CSP = "default-src 'none'; script-src 'self'; form-action *; frame-ancestors 'none'; base-uri 'none'";

/** The OpenID scopes this token request was granted (what the token response's `scope` reports). */
function grantedOpenIdScope(ctx: KoaContextWithOIDC): string {
  const { entities, params } = ctx.oidc;
  const source = entities.AuthorizationCode ?? entities.RefreshToken;
  const requested = params?.scope ? ctx.oidc.requestParamScopes : source?.scopes;
  return entities.Grant && requested ? (entities.Grant.getOIDCScopeFiltered(requested) ?? '') : '';
}

export interface ProviderHooks {
  /** A browser confirmed an RP-initiated logout (/session/end): its grants and Foyer's login session end too. */
  afterLogout(ctx: KoaContextWithOIDC): Promise<void>;
}

export async function createOidcProvider(context: FoyerContext, hooks: ProviderHooks): Promise<Provider> {
  const { config, db } = context;
  const keys = await loadSigningKeys(db);

  const configuration: Configuration = {
    adapter: createAdapterFactory(db, config.secret),
    jwks: { keys: keys.privateJwks as NonNullable<Configuration['jwks']>['keys'] },
    findAccount: (ctx, sub) => loadAccount(context, ctx, sub),
    cookies: { keys: [config.secret] },
    scopes: [...SCOPES],
    claims: CLAIMS_BY_SCOPE,
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    // Public apps always; confidential ones unless their owner switched it off (server-side
    // libraries without PKCE, which authenticate with their secret instead).
    pkce: { required: (_ctx, client) => client.metadata().require_pkce !== false },
    clientAuthMethods: ['none', ...confidentialAuthMethods],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'RS256',
    },
    extraClientMetadata: {
      properties: ['access_token_ttl', 'refresh_token_ttl', 'require_pkce'],
      validator(_ctx, key, value) {
        if (key === 'require_pkce') {
          if (typeof value !== 'boolean') throw new errors.InvalidClientMetadata('require_pkce must be a boolean');
          return;
        }
        if (value !== undefined && !(typeof value === 'number' && Number.isSafeInteger(value) && value > 0)) {
          throw new errors.InvalidClientMetadata(`${key} must be a positive integer`);
        }
      },
    },
    extraParams: ['signup', 'force_federation'],
    routes: {
      authorization: '/authorize',
      token: TOKEN_PATH,
      jwks: '/.well-known/jwks.json',
      revocation: '/token/revocation',
      end_session: '/session/end',
      introspection: '/token/introspection',
    },
    // Userinfo is Foyer's own route (server/auth/oidc/userinfo.ts): oidc-provider's refuses access tokens
    // with an audience, and every Foyer access token names its app.
    discovery: { userinfo_endpoint: `${config.urls.auth}${USERINFO_PATH}` },
    features: {
      devInteractions: { enabled: false },
      // An app may revoke only the tokens issued to it.
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      // A confidential app may look up its own refresh tokens (access tokens are JWTs, verified locally).
      introspection: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => client.clientAuthMethod !== 'none' && token.clientId === client.clientId,
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx) => confirmSignOut(config.urls.ui, ctx as KoaContextWithOIDC),
        postLogoutSuccessSource: (ctx) => toLoginAfterLogout(config.urls.ui, ctx as KoaContextWithOIDC),
      },
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
        name: fullNameOf(membership.user),
        onboarded: membership.user.onboarded,
        ...(membership.tenant.plan ? { plan: membership.tenant.plan } : {}),
      };
    },
    formats: {
      customizers: {
        // The token's `scope` claim is the role's privileges at issuance (docs/ORIGINAL-CONTRACT.md 2.4),
        // so a refresh reflects a changed role; the token response's `scope` stays the granted
        // OpenID scopes, which a client may send back on refresh. The second audience is one no ID
        // token carries, so a resource server can tell the two apart without reading `typ`.
        jwt: (ctx, token, parts) => {
          const role = token.extra?.role;
          parts.payload.scope = privilegesOf(typeof role === 'string' ? role : '').join(' ');
          const appId = String(token.clientId);
          parts.payload.aud = [appId, appResource(appId)];
          // The grant behind the token: the userinfo endpoint answers only while it stands, for its scopes.
          if ('grantId' in token) parts.payload.gid = token.grantId;
          token.scope = grantedOpenIdScope(ctx as KoaContextWithOIDC);
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
  // Its answers leave Fastify's compression behind (server/auth/oidc/mount.ts hands over the raw
  // response), so they are compressed here with the same encodings (server/http/listener.ts).
  provider.use(compress({ br: {}, gzip: {}, deflate: false }));
  // Every read of the request shares one read-ahead (server/auth/oidc/adapter.ts), which for a
  // refresh grant reads the token with the app, and the token endpoint's writes (rotation, session
  // activity, audit) go out as one statement before its answer does (server/db/write-batch.ts).
  provider.use((ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== TOKEN_PATH) return withReadAhead(next);
    return withReadAhead(() => withWriteBatch(db, next), presentedRefreshToken(ctx.req));
  });
  provider.use(async (ctx, next) => {
    // Set before the route runs, so oidc-provider can add the hash of the one inline script it
    // writes (its self-submitting form page) to script-src. Forms may post on to any registered app.
    ctx.set('content-security-policy', PROVIDER_CSP);
    ctx.set('x-frame-options', 'DENY');
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      // An address under the provider's paths that it has no route for: Foyer's answer, not koa's text.
      if (isNavigation(ctx.req)) ctx.redirect(`${config.urls.ui}${ERROR_PAGE_PATH}?error=NOT_FOUND`);
      else {
        ctx.body = { statusCode: 404, error: 'NOT_FOUND', message: 'Not found' };
        ctx.status = 404;
      }
      return;
    }
    const route = ctx.oidc?.route;
    if (route === 'token') await auditTokenAnswer(context, ctx as KoaContextWithOIDC);
    if (route === 'end_session_confirm' && ctx.status === 303) await hooks.afterLogout(ctx as KoaContextWithOIDC);
    // RFC 7009 answers 200 with no content; some clients (oidc-client-ts) refuse oidc-provider's text/plain.
    if (route === 'revocation' && ctx.status === 200) {
      ctx.type = 'json';
      ctx.body = {};
    }
  });
  return provider;
}

/** The refresh token a refresh grant's form presents (server/auth/oidc/mount.ts keeps the form's text on the request). */
function presentedRefreshToken(request: unknown): string | undefined {
  const body = (request as { body?: unknown }).body;
  if (typeof body !== 'string') return undefined;
  const form = new URLSearchParams(body);
  return form.get('grant_type') === 'refresh_token' ? (form.get('refresh_token') ?? undefined) : undefined;
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
