// An in-process stand-in for the auth service's OAuth surface, reached through an injected fetch:
// it checks PKCE (S256), redirect URI and client id like the real token endpoint, signs real RS256
// tokens with jose, publishes its key set, and rotates refresh tokens.

import { createHash, randomUUID } from 'node:crypto';
import { createSigningKey, type TestSigningKey } from './keys.ts';

export interface RecordedCall {
  method: string;
  url: URL;
  body: string;
  credentials?: RequestCredentials;
  headers: Record<string, string>;
}

export interface TestUser {
  sub: string;
  email: string;
  name: string;
  role: string;
  tenantId: string;
  tenantName: string;
  tenantLocale: string;
  onboarded: boolean;
  plan?: string;
}

interface PendingCode {
  codeChallenge: string;
  redirectUri: string;
  user: TestUser;
}

let sharedKey: Promise<TestSigningKey> | undefined;

/** RSA key generation is slow; the tests of one file share one key. */
function sharedSigningKey(): Promise<TestSigningKey> {
  sharedKey ??= createSigningKey('test-key');
  return sharedKey;
}

export const defaultTestUser: TestUser = {
  sub: 'tenant-user-globex',
  email: 'owner@demo.foyer.test',
  name: 'Olivia Owner',
  role: 'OWNER',
  tenantId: 'tenant-globex',
  tenantName: 'Globex',
  tenantLocale: 'sv',
  onboarded: true,
  plan: 'TEAM',
};

export class TestAuthService {
  readonly authUrl = 'http://auth.foyer.test';
  readonly appId: string;
  readonly calls: RecordedCall[] = [];
  accessTokenLifetimeSeconds = 1000;
  /** The `iss` the tokens carry; a wrong one must make the client refuse them. */
  issuer: string = this.authUrl;
  /** Fields the next token answer leaves out (to exercise incomplete answers); used up by that answer. */
  omitFromNextTokenAnswer: string[] = [];
  private signingKey!: TestSigningKey;
  private readonly codes = new Map<string, PendingCode>();
  private readonly refreshTokens = new Map<string, TestUser>();

  private constructor(appId: string) {
    this.appId = appId;
  }

  static async start(appId = 'demo-app', signingKey?: TestSigningKey): Promise<TestAuthService> {
    const service = new TestAuthService(appId);
    service.signingKey = signingKey ?? (await sharedSigningKey());
    return service;
  }

  /** What /auth/chooseTenantUser does at the end of a login: a code bound to the PKCE challenge. */
  issueCode(loginUrl: string, user: TestUser = defaultTestUser): { code: string; state: string } {
    const url = new URL(loginUrl);
    const code = randomUUID();
    this.codes.set(code, {
      codeChallenge: url.searchParams.get('code_challenge') ?? '',
      redirectUri: url.searchParams.get('redirectUri') ?? '',
      user,
    });
    return { code, state: url.searchParams.get('state') ?? '' };
  }

  /** Ends every refresh token server-side (as an admin revoking the session would). */
  revokeAllRefreshTokens(): void {
    this.refreshTokens.clear();
  }

  isRefreshTokenLive(token: string): boolean {
    return this.refreshTokens.has(token);
  }

  callsTo(path: string): RecordedCall[] {
    return this.calls.filter((call) => call.url.pathname === path);
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const body = typeof init.body === 'string' ? init.body : '';
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    this.calls.push({ method: init.method ?? 'GET', url, body, credentials: init.credentials, headers });
    if (url.origin !== this.authUrl) return new Response(null, { status: 404 });
    switch (url.pathname) {
      case '/.well-known/jwks.json':
        return Response.json({ keys: [this.signingKey.publicJwk] });
      case '/token':
        return this.token(new URLSearchParams(body));
      case '/token/revocation': {
        this.refreshTokens.delete(new URLSearchParams(body).get('token') ?? '');
        return new Response(null, { status: 200 });
      }
      default:
        return Response.json({ statusCode: 404, message: 'Not found', error: 'NOT_FOUND' }, { status: 404 });
    }
  };

  private async token(form: URLSearchParams): Promise<Response> {
    const invalidGrant = () => Response.json({ error: 'invalid_grant' }, { status: 400 });
    if (form.get('client_id') !== this.appId) return Response.json({ error: 'invalid_client' }, { status: 401 });
    if (form.get('grant_type') === 'authorization_code') {
      const pending = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      if (!pending || pending.redirectUri !== form.get('redirect_uri')) return invalidGrant();
      const challenge = createHash('sha256')
        .update(form.get('code_verifier') ?? '')
        .digest('base64url');
      if (challenge !== pending.codeChallenge) return invalidGrant();
      return this.tokenAnswer(pending.user);
    }
    if (form.get('grant_type') === 'refresh_token') {
      const presented = form.get('refresh_token') ?? '';
      const user = this.refreshTokens.get(presented);
      if (!user) return invalidGrant();
      this.refreshTokens.delete(presented);
      return this.tokenAnswer(user);
    }
    return Response.json({ error: 'unsupported_grant_type' }, { status: 400 });
  }

  private async tokenAnswer(user: TestUser): Promise<Response> {
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + this.accessTokenLifetimeSeconds;
    const common = { iss: this.issuer, aud: this.appId, sub: user.sub, iat, exp };
    const refreshToken = randomUUID();
    this.refreshTokens.set(refreshToken, user);
    const answer: Record<string, unknown> = {
      access_token: await this.signingKey.sign({
        ...common,
        aid: this.appId,
        tid: user.tenantId,
        role: user.role,
        plan: user.plan,
        scope: 'AUTHENTICATED USER_READ USER_WRITE TENANT_READ TENANT_WRITE',
        email: user.email,
      }),
      refresh_token: refreshToken,
      id_token: await this.signingKey.sign({
        ...common,
        email: user.email,
        email_verified: true,
        name: user.name,
        preferred_username: user.email,
        locale: 'en',
        onboarded: user.onboarded,
        tenant_id: user.tenantId,
        tenant_name: user.tenantName,
        tenant_locale: user.tenantLocale,
      }),
      token_type: 'Bearer',
      expires_in: this.accessTokenLifetimeSeconds,
      scope: 'openid profile email',
    };
    for (const field of this.omitFromNextTokenAnswer) delete answer[field];
    this.omitFromNextTokenAnswer = [];
    return Response.json(answer);
  }
}
