// The development identity provider: a second oidc-provider on its own port (FOYER_DEV_IDP_PORT),
// started with Foyer outside production only (server/app.ts). It stands in for every social provider
// of an app that has no real credentials, so the social buttons work on a fresh machine and tests run
// Foyer's real redirect and callback code against a real OpenID Provider. Its pick screen lists the
// test identities of server/dev-idp/identities.ts; choosing one is the consent.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import Provider, { interactionPolicy, type Configuration } from 'oidc-provider';
import type { ServerConfig } from '../config.ts';
import { federationTypes } from '../../common/app-config.ts';
import { DEV_IDENTITIES, devIdentity } from './identities.ts';
import { renderPickPage } from './page.ts';

export const DEV_IDP_CLIENT_ID = 'foyer';

/** The development client's secret: derived from FOYER_SECRET, so nothing fixed is published. */
export function devIdpClientSecret(config: ServerConfig): string {
  return createHash('sha256').update(`foyer-dev-idp:${config.secret}`).digest('base64url');
}

/** Where the provider sends the browser back for each social type (server/auth/federation/routes.ts). */
export function federationCallbackUrl(authUrl: string, type: string): string {
  return `${authUrl}/federated/${type}/callback`;
}

export interface DevIdentityProvider {
  url: string;
  listen(host: string): Promise<string>;
  close(): Promise<void>;
}

/** The pick screen every time (no single sign-on), so a developer can switch identities freely. */
function alwaysPick() {
  const policy = interactionPolicy.base();
  policy
    .get('login')!
    .checks.add(
      new interactionPolicy.Check(
        'always_pick',
        'the development provider asks every time',
        'login_required',
        (ctx) => !ctx.oidc.result?.login,
      ),
    );
  return policy;
}

function createProvider(config: ServerConfig, privateKey: KeyObject): Provider {
  const configuration: Configuration = {
    clients: [
      {
        client_id: DEV_IDP_CLIENT_ID,
        client_secret: devIdpClientSecret(config),
        // Every social type's callback, and enterprise OIDC's, so it may serve as a workspace's issuer too.
        redirect_uris: [...federationTypes, 'oidc'].map((type) => federationCallbackUrl(config.urls.auth, type)),
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [privateKey.export({ format: 'jwk' }) as NonNullable<Configuration['jwks']>['keys'][number]] },
    findAccount: (_ctx, sub) => {
      const identity = devIdentity(sub);
      if (!identity) return undefined;
      return {
        accountId: identity.id,
        claims: () => ({
          sub: identity.id,
          email: identity.email,
          email_verified: identity.emailVerified,
          name: `${identity.givenName} ${identity.familyName}`,
          given_name: identity.givenName,
          family_name: identity.familyName,
        }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'] },
    scopes: ['openid', 'email', 'profile'],
    // Its cookies share the host name with Foyer's own provider (cookies ignore ports): other names.
    cookies: {
      keys: [devIdpClientSecret(config)],
      names: { session: 'dev_idp_session', interaction: 'dev_idp_interaction', resume: 'dev_idp_resume' },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}`, policy: alwaysPick() },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    renderError(ctx, out) {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `${out.error}: ${out.error_description ?? ''}`;
    },
  };
  return new Provider(config.devIdp.url, configuration);
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of request) {
    body += String(chunk);
    if (body.length > 10_000) break;
  }
  return new URLSearchParams(body);
}

function sendPage(response: ServerResponse, status: number, html: string) {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // No form-action: it would cover the whole redirect chain after a pick (the provider, Foyer's
    // callback, the hosted UI), and the page's forms post only to itself.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  });
  response.end(html);
}

async function interaction(provider: Provider, request: IncomingMessage, response: ServerResponse, path: string[]) {
  const [uid, action] = path;
  let details;
  try {
    details = await provider.interactionDetails(request, response);
  } catch {
    sendPage(response, 400, renderPickPage({ expired: true }));
    return;
  }
  if (details.uid !== uid) {
    sendPage(response, 400, renderPickPage({ expired: true }));
    return;
  }
  if (request.method === 'GET' && action === undefined) {
    sendPage(response, 200, renderPickPage({ uid, identities: DEV_IDENTITIES }));
    return;
  }
  if (request.method !== 'POST' || (action !== 'login' && action !== 'cancel')) {
    sendPage(response, 404, renderPickPage({ expired: true }));
    return;
  }
  if (action === 'cancel') {
    await provider.interactionFinished(
      request,
      response,
      { error: 'access_denied', error_description: 'The person cancelled' },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const identity = devIdentity((await readForm(request)).get('identity') ?? '');
  if (!identity) {
    sendPage(response, 400, renderPickPage({ uid, identities: DEV_IDENTITIES }));
    return;
  }
  const grant = new provider.Grant({ accountId: identity.id, clientId: String(details.params.client_id) });
  grant.addOIDCScope(String(details.params.scope ?? 'openid'));
  const grantId = await grant.save();
  await provider.interactionFinished(
    request,
    response,
    { login: { accountId: identity.id }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

export function createDevIdentityProvider(config: ServerConfig): DevIdentityProvider {
  // A new signing key each start, made on libuv's thread pool while Foyer sets up its listeners: made
  // on the main thread it held every start back by a third of a second (npm run bench -- server-start).
  const keyMade = promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  keyMade.catch(() => undefined); // listen() reports a failure; unlistened, nothing waits for the key
  let server: Server | undefined;
  return {
    url: config.devIdp.url,
    async listen(host) {
      const provider = createProvider(config, (await keyMade).privateKey);
      const handle = provider.callback();
      server = createServer((request, response) => {
        const path = new URL(request.url ?? '/', 'http://dev-idp').pathname.split('/').filter(Boolean);
        if (path[0] === 'interaction') {
          interaction(provider, request, response, path.slice(1)).catch(() => {
            if (!response.headersSent) sendPage(response, 500, renderPickPage({ expired: true }));
          });
          return;
        }
        handle(request, response);
      });
      const listening = server;
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(config.devIdp.port, host, () => resolve());
      });
      const address = listening.address();
      return typeof address === 'object' && address ? `http://${host}:${address.port}` : config.devIdp.url;
    },
    async close() {
      const running = server;
      if (!running) return;
      running.closeAllConnections();
      await new Promise<void>((resolve) => running.close(() => resolve()));
    },
  };
}
