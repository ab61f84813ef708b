// The six social providers and how Foyer talks to each: Google, Microsoft and Apple through OpenID
// Connect (openid-client: discovery, PKCE, state, nonce, ID token checks), GitHub, Facebook and
// LinkedIn through OAuth 2 and their user APIs. An app's own client id and sealed secret use the real
// provider; without them, outside production, the development identity provider (server/dev-idp)
// serves every type along the same code. Production never uses it.
import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import type { ServerConfig } from '../../config.ts';
import type { FoyerContext } from '../../context.ts';
import { openProviderSecret } from '../../apps/provider-secrets.ts';
import { DEV_IDP_CLIENT_ID, devIdpClientSecret, federationCallbackUrl } from '../../dev-idp/server.ts';
import { socialProviderOf, type FederationType, type SocialProvider } from '../../../common/app-config.ts';
import type { App } from '../../apps/lookup.ts';
import { HttpError } from '../../http/errors.ts';
import type { StoredProviderCredentials } from '../../db/app-settings.ts';
import { appleClientAuthentication } from './apple.ts';

/** What Foyer learns of a person from a provider, whatever the provider's own shape. */
export interface FederatedProfile {
  subject: string;
  email: string | null;
  /** Only a provider's explicit word counts: an e-mail it does not vouch for is never linked. */
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
}

type Tokens = Awaited<ReturnType<typeof client.authorizationCodeGrant>>;

interface ProviderSpec {
  protocol: 'oidc' | 'oauth2';
  scope: string;
  /** Apple answers scoped requests by form post only. */
  responseMode?: 'form_post';
  /** OIDC: the issuer to discover. OAuth 2: the endpoints. */
  issuer: string;
  endpoints?: { authorization: string; token: string; userinfo?: string };
  /** OAuth 2 providers: the person behind an access token, from the provider's user API. */
  fetchProfile?: (configuration: client.Configuration, accessToken: string) => Promise<FederatedProfile>;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** `email_verified` as OpenID Connect says it; Apple sends the text "true". */
const verified = (value: unknown) => value === true || value === 'true';

/** Standard OpenID Connect claims (an ID token's, or a userinfo answer's). */
export function profileFromClaims(claims: Record<string, unknown>): FederatedProfile {
  const subject = text(claims.sub);
  if (!subject) throw new Error('The provider named no subject');
  return {
    subject,
    email: text(claims.email),
    emailVerified: verified(claims.email_verified),
    firstName: text(claims.given_name),
    lastName: text(claims.family_name),
  };
}

/**
 * An OpenID provider's person: the ID token's claims, and where it left the e-mail out (providers may
 * keep it for userinfo) the userinfo answer for the same subject.
 */
async function oidcProfile(configuration: client.Configuration, tokens: Tokens): Promise<FederatedProfile> {
  const claims: Record<string, unknown> = { ...tokens.claims() };
  if (claims.email === undefined && configuration.serverMetadata().userinfo_endpoint && typeof claims.sub === 'string') {
    Object.assign(claims, await client.fetchUserInfo(configuration, tokens.access_token, claims.sub));
  }
  return profileFromClaims(claims);
}

async function getJson(configuration: client.Configuration, accessToken: string, url: string): Promise<unknown> {
  const response = await client.fetchProtectedResource(configuration, accessToken, new URL(url), 'GET');
  if (!response.ok) throw new Error(`The provider's user API answered ${response.status}`);
  return response.json();
}

/** GitHub: the user, and the e-mail GitHub marks primary and verified (GET /user/emails). */
export function githubProfile(user: Record<string, unknown>, emails: unknown): FederatedProfile {
  const list = Array.isArray(emails) ? (emails as Record<string, unknown>[]) : [];
  const primary = list.find((entry) => entry.primary === true) ?? list.find((entry) => entry.verified === true);
  const [firstName, ...rest] = (text(user.name) ?? '').split(' ');
  if (typeof user.id !== 'number' && typeof user.id !== 'string') throw new Error('GitHub named no user id');
  return {
    subject: String(user.id),
    email: text(primary?.email) ?? text(user.email),
    emailVerified: primary?.verified === true,
    firstName: text(firstName),
    lastName: text(rest.join(' ')),
  };
}

/** Facebook: its Graph API says nothing of whether the e-mail was verified, so it never links. */
export function facebookProfile(me: Record<string, unknown>): FederatedProfile {
  const subject = text(me.id);
  if (!subject) throw new Error('Facebook named no user id');
  return { subject, email: text(me.email), emailVerified: false, firstName: text(me.first_name), lastName: text(me.last_name) };
}

const MICROSOFT_ORIGIN = 'https://login.microsoftonline.com';
/** Microsoft's multi-tenant authorities (an app's `tenant` setting; `common` when unset). */
export const MICROSOFT_TENANTS = ['common', 'organizations', 'consumers'] as const;
// What Microsoft's multi-tenant discovery documents name as the issuer; an ID token's own `iss`
// carries the person's tenant id in its place.
const MICROSOFT_ISSUER_TEMPLATE = `${MICROSOFT_ORIGIN}/{tenantid}/v2.0`;
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The issuer an app's own client discovers for `type`: Microsoft's per its tenant setting. */
function issuerFor(type: FederationType, credentials: StoredProviderCredentials): string {
  if (type !== 'ms-azure-ad') return SPECS[type].issuer;
  const tenant = MICROSOFT_TENANTS.find((name) => name === credentials.tenant) ?? 'common';
  return `${MICROSOFT_ORIGIN}/${tenant}/v2.0`;
}

/**
 * A Microsoft ID token already passed openid-client's issuer check (its `iss` equals the template
 * with the token's own `tid`); this keeps the tenant id a tenant id, so no `iss` off Microsoft's host
 * (nor a path smuggled in through `tid`) is ever taken.
 */
function checkMicrosoftIssuer(claims: Record<string, unknown>): void {
  const tid = typeof claims.tid === 'string' ? claims.tid : '';
  if (!TENANT_ID.test(tid) || claims.iss !== MICROSOFT_ISSUER_TEMPLATE.replace('{tenantid}', tid)) {
    throw new Error('The ID token names an issuer outside Microsoft or another tenant than its tid');
  }
}

const SPECS: Record<FederationType, ProviderSpec> = {
  google: { protocol: 'oidc', issuer: 'https://accounts.google.com', scope: 'openid email profile' },
  'ms-azure-ad': { protocol: 'oidc', issuer: `${MICROSOFT_ORIGIN}/common/v2.0`, scope: 'openid email profile' },
  apple: { protocol: 'oidc', issuer: 'https://appleid.apple.com', scope: 'openid email name', responseMode: 'form_post' },
  github: {
    protocol: 'oauth2',
    issuer: 'https://github.com',
    scope: 'read:user user:email',
    endpoints: { authorization: 'https://github.com/login/oauth/authorize', token: 'https://github.com/login/oauth/access_token' },
    fetchProfile: async (configuration, accessToken) =>
      githubProfile(
        (await getJson(configuration, accessToken, 'https://api.github.com/user')) as Record<string, unknown>,
        await getJson(configuration, accessToken, 'https://api.github.com/user/emails'),
      ),
  },
  facebook: {
    protocol: 'oauth2',
    issuer: 'https://www.facebook.com',
    scope: 'email public_profile',
    endpoints: {
      authorization: 'https://www.facebook.com/v19.0/dialog/oauth',
      token: 'https://graph.facebook.com/v19.0/oauth/access_token',
    },
    fetchProfile: async (configuration, accessToken) =>
      facebookProfile(
        (await getJson(configuration, accessToken, 'https://graph.facebook.com/v19.0/me?fields=id,email,first_name,last_name')) as Record<
          string,
          unknown
        >,
      ),
  },
  linkedin: {
    protocol: 'oauth2',
    issuer: 'https://www.linkedin.com/oauth',
    scope: 'openid profile email',
    endpoints: {
      authorization: 'https://www.linkedin.com/oauth/v2/authorization',
      token: 'https://www.linkedin.com/oauth/v2/accessToken',
      userinfo: 'https://api.linkedin.com/v2/userinfo',
    },
    fetchProfile: async (configuration, accessToken) =>
      profileFromClaims(await client.fetchUserInfo(configuration, accessToken, client.skipSubjectCheck)),
  },
};

/** A provider ready to use for one app: which one serves it, and the client to talk to it with. */
export interface Upstream {
  type: FederationType;
  source: 'app' | 'development';
  protocol: 'oidc' | 'oauth2';
  configuration: client.Configuration;
  scope: string;
  responseMode?: 'form_post';
  redirectUri: string;
  /** The person behind the tokens of a finished code exchange. */
  profile(tokens: Tokens): Promise<FederatedProfile>;
}

const DISCOVERY_TTL_MS = 10 * 60 * 1000;
const discovered = new Map<string, { metadata: client.ServerMetadata; at: number }>();

/** An issuer's discovery document, kept ten minutes. */
export async function serverMetadata(issuer: string, insecure: boolean): Promise<client.ServerMetadata> {
  const cached = discovered.get(issuer);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.metadata;
  let metadata: client.ServerMetadata;
  try {
    const configuration = await client.discovery(
      new URL(issuer),
      'discovery',
      undefined,
      undefined,
      insecure ? { execute: [client.allowInsecureRequests] } : undefined,
    );
    metadata = configuration.serverMetadata();
  } catch (error) {
    throw Object.assign(new HttpError(502, 'FEDERATION_PROVIDER_UNAVAILABLE', 'The sign-in provider cannot be reached; try again later'), {
      cause: error,
    });
  }
  discovered.set(issuer, { metadata, at: Date.now() });
  return metadata;
}

function withInsecure(configuration: client.Configuration, insecure: boolean): client.Configuration {
  if (insecure) client.allowInsecureRequests(configuration);
  return configuration;
}

function withProviderFetch(config: ServerConfig, configuration: client.Configuration): client.Configuration {
  if (config.providerFetch) configuration[client.customFetch] = config.providerFetch;
  return configuration;
}

const ownConfigurations = new Map<string, { configuration: client.Configuration; at: number }>();

/**
 * An app's own client of an OpenID provider, kept ten minutes. It comes straight from openid-client's
 * discovery: for Microsoft's multi-tenant authorities that is what makes openid-client check an ID
 * token's `iss` against the discovered template filled with the token's own `tid` (a configuration
 * rebuilt from copied metadata would lose it). Apple's client authenticates with a JWT it signs per
 * token request (./apple.ts).
 */
async function ownOidcConfiguration(
  config: ServerConfig,
  type: FederationType,
  issuer: string,
  credentials: StoredProviderCredentials,
  secret: string,
): Promise<client.Configuration> {
  const key = createHash('sha256')
    .update(JSON.stringify([issuer, credentials.clientId, credentials.teamId, credentials.keyId, secret]))
    .digest('hex');
  const cached = ownConfigurations.get(key);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.configuration;
  const authentication =
    type === 'apple'
      ? appleClientAuthentication({ teamId: credentials.teamId ?? '', keyId: credentials.keyId ?? '', privateKey: secret })
      : client.ClientSecretPost(secret);
  let configuration: client.Configuration;
  try {
    configuration = await client.discovery(
      new URL(issuer),
      credentials.clientId!,
      undefined,
      authentication,
      config.providerFetch ? { [client.customFetch]: config.providerFetch } : undefined,
    );
  } catch (error) {
    throw Object.assign(new HttpError(502, 'FEDERATION_PROVIDER_UNAVAILABLE', 'The sign-in provider cannot be reached; try again later'), {
      cause: error,
    });
  }
  // openid-client takes any issuer a login.microsoftonline.com document names; only Microsoft's own host is.
  if (type === 'ms-azure-ad' && URL.parse(configuration.serverMetadata().issuer)?.origin !== MICROSOFT_ORIGIN) {
    throw new HttpError(502, 'FEDERATION_PROVIDER_UNAVAILABLE', 'The sign-in provider cannot be reached; try again later');
  }
  ownConfigurations.set(key, { configuration, at: Date.now() });
  return configuration;
}

/** Whether the app configured its own client for this provider (a client id and a sealed secret). */
export function hasOwnCredentials(app: App, provider: SocialProvider): boolean {
  const credentials = app.settings.socialProviders?.[provider];
  return Boolean(credentials?.clientId && credentials.clientSecretSealed);
}

/**
 * The provider that serves `type` for `app`: its own credentials, else (outside production) the
 * development identity provider, else none. `source` pins the choice a started sign-in made.
 */
export async function upstreamFor(
  context: FoyerContext,
  app: App,
  type: FederationType,
  source?: 'app' | 'development',
): Promise<Upstream | undefined> {
  const { config } = context;
  const provider = socialProviderOf(type)!;
  const redirectUri = federationCallbackUrl(config.urls.auth, type);
  const spec = SPECS[type];
  const own = hasOwnCredentials(app, provider);
  const chosen = source ?? (own ? 'app' : config.env === 'production' ? undefined : 'development');
  if (chosen === 'app' && own) {
    const credentials = app.settings.socialProviders![provider]!;
    const secret = openProviderSecret(config, app.id, provider, credentials.clientSecretSealed!);
    const configuration =
      spec.protocol === 'oidc'
        ? await ownOidcConfiguration(config, type, issuerFor(type, credentials), credentials, secret)
        : withProviderFetch(
            config,
            new client.Configuration(
              {
                issuer: spec.issuer,
                authorization_endpoint: spec.endpoints!.authorization,
                token_endpoint: spec.endpoints!.token,
                ...(spec.endpoints!.userinfo ? { userinfo_endpoint: spec.endpoints!.userinfo } : {}),
              },
              credentials.clientId!,
              secret,
            ),
          );
    return {
      type,
      source: 'app',
      protocol: spec.protocol,
      configuration,
      scope: spec.scope,
      responseMode: spec.responseMode,
      redirectUri,
      profile: async (tokens) => {
        if (spec.protocol !== 'oidc') return spec.fetchProfile!(configuration, tokens.access_token);
        if (type === 'ms-azure-ad') checkMicrosoftIssuer({ ...tokens.claims() });
        return oidcProfile(configuration, tokens);
      },
    };
  }
  if (chosen === 'development' && config.env !== 'production') {
    const insecure = config.devIdp.url.startsWith('http:');
    const metadata = await serverMetadata(config.devIdp.url, insecure);
    const configuration = withInsecure(new client.Configuration(metadata, DEV_IDP_CLIENT_ID, devIdpClientSecret(config)), insecure);
    return {
      type,
      source: 'development',
      protocol: spec.protocol,
      configuration,
      // The stand-in speaks OpenID Connect; for OAuth 2 types its userinfo plays the user API.
      scope: 'openid email profile',
      responseMode: spec.responseMode,
      redirectUri,
      profile: async (tokens) =>
        spec.protocol === 'oidc'
          ? oidcProfile(configuration, tokens)
          : profileFromClaims(await client.fetchUserInfo(configuration, tokens.access_token, client.skipSubjectCheck)),
    };
  }
  return undefined;
}
