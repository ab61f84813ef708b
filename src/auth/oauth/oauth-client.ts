// The OAuth implementation of AuthClient: authorization code with PKCE against the auth service,
// tokens verified against its key set, one refresh timer, and the auth origin's session calls.

import type { JWTPayload } from 'jose';
import { UnauthenticatedError } from '../../http/errors.ts';
import { apiHeaderRules } from '../../http/headers.ts';
import type { ClientConfig } from '../../config.ts';
import { AuthError, AuthErrorKeys } from '../errors.ts';
import { safeReturnPath } from '../return-path.ts';
import type { BrowserRuntime } from '../runtime.ts';
import { StorageKeys } from '../storage-keys.ts';
import type {
  AuthClient,
  AuthListener,
  CurrentUserData,
  MagicLinkCalls,
  PasskeyCalls,
  PasskeyRegistrant,
  PasswordCalls,
  SecondFactorCalls,
  SignedOutReason,
  SignInSessionCalls,
  SignInSteps,
} from '../types.ts';
import { fallbackUserData } from '../user.ts';
import { userFromClaims } from './claims.ts';
import { randomToken, s256Challenge } from './pkce.ts';
import { RefreshTimer, refreshDelayMs } from './refresh-timer.ts';
import type { SessionApi } from './session-api.ts';
import {
  TokenEndpointError,
  exchangeCode,
  exchangeHandoverCode,
  refreshTokens,
  revokeRefreshToken,
  type TokenEndpointOptions,
  type TokenSet,
} from './token-endpoint.ts';
import {
  clearPendingAuthorizations,
  clearSessionKeys,
  readStoredTokens,
  storePendingAuthorization,
  takePendingAuthorization,
  writeStoredTokens,
} from './token-store.ts';
import type { TokenVerifier } from './token-verifier.ts';

/** Access tokens this close to expiry are renewed before an API call rather than sent. */
const EXPIRY_MARGIN_MS = 5_000;
/** How long logout waits for each best-effort server call before leaving anyway. */
const LOGOUT_CALL_LIMIT_MS = 5_000;

interface Session {
  tokens: Required<TokenSet>;
  accessClaims: JWTPayload;
  idClaims: JWTPayload;
}

export function trimTrailingSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}

export class OAuthClient implements AuthClient {
  readonly federation = true;
  readonly signIn: SignInSteps;
  readonly password: PasswordCalls;
  readonly mfa: SecondFactorCalls;
  readonly magicLink: MagicLinkCalls;
  readonly passkeys: PasskeyCalls;
  readonly sessions: SignInSessionCalls;
  private readonly config: ClientConfig;
  private readonly runtime: BrowserRuntime;
  private readonly authUrl: string;
  private readonly redirectUri: string;
  private readonly tokenEndpoint: TokenEndpointOptions;
  private readonly verify: TokenVerifier;
  private readonly refreshTimer: RefreshTimer;
  private readonly listeners = new Set<AuthListener>();
  private session: Session | undefined;
  private endReason: SignedOutReason | undefined;
  private refreshInFlight: Promise<void> | undefined;
  private watchingOtherTabs = false;
  /** Set by a sign-out or a workspace switch, which leave the page (login). */
  private leaving = false;

  constructor(config: ClientConfig, runtime: BrowserRuntime) {
    this.config = config;
    this.runtime = runtime;
    this.authUrl = trimTrailingSlashes(config.authUrl);
    this.redirectUri = `${trimTrailingSlashes(config.uiUrl)}${config.oauthRedirectPath}`;
    const fetch = runtime.fetch;
    this.tokenEndpoint = { authUrl: this.authUrl, appId: config.appId, fetch };
    // The JOSE library loads with the first token to check, so a visitor who is not signed in never fetches it.
    let verifier: Promise<TokenVerifier> | undefined;
    this.verify = async (token) => {
      verifier ??= import('./token-verifier.ts').then(({ createTokenVerifier }) =>
        createTokenVerifier({ authUrl: this.authUrl, appId: config.appId, fetch, now: runtime.now }),
      );
      return (await verifier)(token);
    };
    this.refreshTimer = new RefreshTimer(runtime);
    // The auth service's sign-in calls load with the first one (a submit), not with the page; a failed load is tried again.
    let sessionApi: Promise<SessionApi> | undefined;
    const api = () =>
      (sessionApi ??= import('./session-api.ts').then(
        (loaded) => new loaded.SessionApi(this.authUrl, config.appId, fetch),
        (error: unknown) => {
          sessionApi = undefined;
          throw error;
        },
      ));
    this.signIn = {
      credentialsConfig: async (username) => (await api()).credentialsConfig(username),
      authenticate: async (username, password) => (await api()).authenticate(username, password),
      tenantUsers: async () => (await api()).tenantUsers(),
      switchWorkspace: async (tenantUserId) => {
        this.leaving = true;
        // The tokens of the workspace being left must not outlive the switch.
        await this.dropTokens();
        runtime.localStorage.setItem(StorageKeys.tenantUserId, tenantUserId);
        runtime.redirect(`${this.authUrl}/auth/chooseTenantUser/${encodeURIComponent(tenantUserId)}`);
      },
      continue: () => runtime.redirect(`${this.authUrl}/auth/continue?${new URLSearchParams({ appId: config.appId }).toString()}`),
      restart: async () => (await api()).restartSignIn(),
    };
    this.password = {
      sendResetLink: async (username) => (await api()).sendResetLink(username),
      token: async (token) => (await api()).passwordToken(token),
      set: async (token, password) => (await api()).setPassword(token, password),
    };
    this.mfa = {
      startUserSetup: async (phoneNumber) => (await api()).startMfaUserSetup(phoneNumber),
      finishUserSetup: async (mfaCode) => (await api()).finishMfaUserSetup(mfaCode),
      commitCode: async (mfaCode, method) => (await api()).commitMfaCode(mfaCode, method),
      methods: async () => (await api()).mfaMethods(),
      startTotpSetup: async () => (await api()).startTotpSetup(),
      finishTotpSetup: async (mfaCode) => (await api()).finishTotpSetup(mfaCode),
      resendCode: async () => (await api()).resendMfaCode(),
      resetUserSetup: async (backupCode) => (await api()).resetUserMfaSetup(backupCode),
    };
    this.magicLink = { send: async (username) => (await api()).sendMagicLink(username) };
    this.passkeys = {
      authenticationOptions: async () => (await api()).passkeyAuthenticationOptions(),
      verifyAuthentication: async (response) => (await api()).verifyPasskeyAuthentication(response),
      registrationOptions: async (registrant) => (await api()).passkeyRegistrationOptions(...(await this.registrantParts(registrant))),
      verifyRegistration: async (registrant, response) =>
        (await api()).verifyPasskeyRegistration(...(await this.registrantParts(registrant)), response),
      list: async () => (await api()).listPasskeys(await this.bearer()),
      rename: async (id, name) => (await api()).renamePasskey(id, name, await this.bearer()),
      delete: async (id) => (await api()).deletePasskey(id, await this.bearer()),
    };
    this.sessions = {
      list: async () => (await api()).listSessions(await this.bearer()),
      revoke: async (id) => (await api()).revokeSession(id, await this.bearer()),
      revokeOthers: async () => (await api()).revokeOtherSessions(await this.bearer()),
      signOutEverywhere: async () => {
        await (await api()).revokeAllSessions(await this.bearer());
        await this.logout();
      },
    };
  }

  async init(): Promise<void> {
    if (!this.watchingOtherTabs) {
      this.watchingOtherTabs = true;
      this.runtime.onStorageChange((key) => this.followOtherTab(key));
    }
    try {
      const stored = readStoredTokens(this.runtime.localStorage);
      if (stored.accessToken && stored.refreshToken && stored.idToken) {
        try {
          await this.adopt({ accessToken: stored.accessToken, refreshToken: stored.refreshToken, idToken: stored.idToken });
          return;
        } catch {
          // Expired or otherwise unverifiable: the refresh token below may still renew the session.
        }
      }
      if (stored.refreshToken) {
        await this.refresh();
        return;
      }
      // Leftovers without a refresh token cannot become a session.
      this.clear();
    } catch {
      this.clear();
    }
  }

  isAuthenticated(): boolean {
    return this.session !== undefined;
  }

  currentUser(): CurrentUserData {
    return this.session ? userFromClaims(this.session.idClaims, this.session.accessClaims) : fallbackUserData();
  }

  currentTenantUserId(): string | undefined {
    return this.session?.idClaims.sub ?? this.runtime.localStorage.getItem(StorageKeys.tenantUserId) ?? undefined;
  }

  accessToken(): string | undefined {
    return this.session?.tokens.accessToken;
  }

  apiHeaders(): Record<string, string> {
    // The tenant user travels inside the access token; the stored NB_TENANT_USER_ID is not sent
    // (the server takes the tenant only from the token).
    return apiHeaderRules({ accessToken: this.accessToken(), appId: this.config.appId });
  }

  async ensureFresh(): Promise<void> {
    const expiresAt = this.session?.accessClaims.exp;
    if (expiresAt === undefined || expiresAt * 1000 - this.runtime.now() > EXPIRY_MARGIN_MS) return;
    try {
      await this.refresh();
    } catch {
      this.clear();
    }
  }

  async login(returnPath?: string): Promise<void> {
    if (this.leaving) return;
    const state = randomToken(this.runtime);
    const codeVerifier = randomToken(this.runtime);
    const codeChallenge = await s256Challenge(this.runtime, codeVerifier);
    storePendingAuthorization(this.runtime.sessionStorage, state, {
      codeVerifier,
      returnPath: safeReturnPath(returnPath, this.config.uiUrl),
    });
    const query = new URLSearchParams({
      redirectUri: this.redirectUri,
      state,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
    });
    this.runtime.redirect(`${this.authUrl}/url/login/${encodeURIComponent(this.config.appId)}?${query.toString()}`);
  }

  async handleCallback(query: URLSearchParams): Promise<string> {
    const state = query.get('state');
    // Taken before anything else so a state value can never be replayed, whatever happens next.
    const pending = state ? takePendingAuthorization(this.runtime.sessionStorage, state) : undefined;
    if (query.get('error') !== null || !pending) throw new AuthError(AuthErrorKeys.loginFailed);
    const code = query.get('code');
    if (!code) throw new AuthError(AuthErrorKeys.missingCode);

    let tokens: TokenSet;
    try {
      tokens = await exchangeCode(this.tokenEndpoint, {
        code,
        redirectUri: this.redirectUri,
        codeVerifier: pending.codeVerifier,
      });
    } catch (error) {
      if (error instanceof TokenEndpointError) throw new AuthError(AuthErrorKeys.wrongCredentials, { cause: error });
      throw new AuthError(AuthErrorKeys.loginFailed, { cause: error });
    }
    if (!tokens.accessToken && !tokens.refreshToken) throw new AuthError(AuthErrorKeys.wrongCredentials);

    try {
      if (tokens.accessToken && tokens.refreshToken && tokens.idToken) {
        await this.adopt({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, idToken: tokens.idToken });
      } else if (tokens.refreshToken) {
        this.runtime.localStorage.setItem(StorageKeys.oauthRefreshToken, tokens.refreshToken);
        await this.refresh();
      } else {
        throw new Error('The token answer has no refresh token');
      }
    } catch (error) {
      this.clear();
      throw new AuthError(AuthErrorKeys.authenticationFailed, { cause: error });
    }
    clearPendingAuthorizations(this.runtime.sessionStorage);
    return safeReturnPath(pending.returnPath, this.config.uiUrl) ?? this.config.handoverRoute;
  }

  async exchangeHandoverCode(code: string | null | undefined, codeVerifier: string | null): Promise<void> {
    if (!code) throw new AuthError(AuthErrorKeys.missingCode);
    let tokens: TokenSet;
    try {
      tokens = await exchangeHandoverCode(this.tokenEndpoint, code, codeVerifier);
    } catch (error) {
      throw new AuthError(error instanceof TokenEndpointError ? AuthErrorKeys.wrongCredentials : AuthErrorKeys.loginFailed, {
        cause: error,
      });
    }
    if (!tokens.accessToken || !tokens.refreshToken || !tokens.idToken) throw new AuthError(AuthErrorKeys.wrongCredentials);
    try {
      await this.adopt({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, idToken: tokens.idToken });
    } catch (error) {
      this.clear();
      throw new AuthError(AuthErrorKeys.authenticationFailed, { cause: error });
    }
  }

  /**
   * Revokes the refresh token, then ends the sign-in on the auth service through its logout URL; the
   * ID token proves whom it signs out, so the hosted sign-out screen does not need to ask.
   */
  async logout(postLogoutRedirectUri?: string): Promise<void> {
    this.leaving = true;
    const idToken = this.runtime.localStorage.getItem(StorageKeys.idToken) ?? this.session?.tokens.idToken;
    await this.dropTokens();
    const query = new URLSearchParams();
    if (postLogoutRedirectUri) query.set('redirectUri', postLogoutRedirectUri);
    if (idToken) query.set('idTokenHint', idToken);
    const search = query.size > 0 ? `?${query.toString()}` : '';
    this.runtime.redirect(`${this.authUrl}/url/logout/${encodeURIComponent(this.config.appId)}${search}`);
  }

  clear(reason?: SignedOutReason): void {
    this.endReason = reason;
    this.refreshTimer.cancel();
    const hadSession = this.session !== undefined;
    this.session = undefined;
    const hadStoredKeys = clearSessionKeys(this.runtime.localStorage);
    if (hadSession || hadStoredKeys) this.notify();
  }

  signedOutReason(): SignedOutReason | undefined {
    return this.endReason;
  }

  /** The signed-in user's access token for the auth service's profile calls (fails when signed out). */
  private async bearer(): Promise<Record<string, string>> {
    await this.ensureFresh();
    const token = this.accessToken();
    if (!token) throw new UnauthenticatedError({ message: 'Not signed in', code: 'UNAUTHENTICATED', statusCode: 401 });
    return { authorization: `Bearer ${token}` };
  }

  private async registrantParts(registrant: PasskeyRegistrant): Promise<[string | undefined, Record<string, string>]> {
    return 'forgotPasswordToken' in registrant ? [registrant.forgotPasswordToken, {}] : [undefined, await this.bearer()];
  }

  subscribe(listener: AuthListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Tabs share the tokens: a logout elsewhere ends this tab's session, a sign-in or refresh elsewhere is adopted. */
  private followOtherTab(key: string | null): void {
    if (key !== null && key !== StorageKeys.oauthRefreshToken) return;
    const stored = readStoredTokens(this.runtime.localStorage);
    if (!stored.refreshToken) {
      if (this.session) this.clear();
      return;
    }
    if (!stored.accessToken || !stored.idToken || stored.accessToken === this.session?.tokens.accessToken) return;
    const tokens = { accessToken: stored.accessToken, refreshToken: stored.refreshToken, idToken: stored.idToken };
    // Not written back: the other tab owns what is stored, and may already have moved on.
    this.adopt(tokens, { persist: false }).catch(() => undefined);
  }

  /** Verifies a full token set, then makes it the session, stores it and schedules its refresh. */
  private async adopt(tokens: Required<TokenSet>, { persist } = { persist: true }): Promise<void> {
    const [accessClaims, idClaims] = await Promise.all([this.verify(tokens.accessToken), this.verify(tokens.idToken)]);
    this.session = { tokens, accessClaims, idClaims };
    this.endReason = undefined;
    if (persist) {
      writeStoredTokens(this.runtime.localStorage, tokens);
      // Names the token's workspace, never an earlier choice.
      if (typeof idClaims.sub === 'string') this.runtime.localStorage.setItem(StorageKeys.tenantUserId, idClaims.sub);
    }
    this.scheduleRefresh(accessClaims.exp as number);
    this.notify();
  }

  private scheduleRefresh(expiresAtSeconds: number): void {
    this.refreshTimer.set(refreshDelayMs(expiresAtSeconds, this.runtime.now()), () => {
      this.refresh().catch(() => this.clear());
    });
  }

  /**
   * One refresh at a time, in this tab and across the tabs sharing the tokens: refresh tokens
   * rotate, so the tab that waited takes the tokens the other one just got instead of rotating again.
   */
  refresh(): Promise<void> {
    const held = this.session?.tokens.refreshToken;
    this.refreshInFlight ??= this.runtime
      .exclusive(`foyer-refresh:${this.config.appId}`, () => this.runRefresh(held))
      .finally(() => {
        this.refreshInFlight = undefined;
      });
    return this.refreshInFlight;
  }

  private async runRefresh(held: string | undefined): Promise<void> {
    // Storage, not memory, is the truth: another tab may have rotated the tokens since.
    const stored = readStoredTokens(this.runtime.localStorage);
    const refreshToken = stored.refreshToken;
    if (!refreshToken) throw new AuthError(AuthErrorKeys.tokenRefreshFailed);
    if (held && refreshToken !== held && stored.accessToken && stored.idToken) {
      try {
        await this.adopt({ accessToken: stored.accessToken, refreshToken, idToken: stored.idToken });
        return;
      } catch {
        // Not usable (expired meanwhile): refresh with the stored refresh token below.
      }
    }
    try {
      const renewed = await refreshTokens(this.tokenEndpoint, refreshToken);
      const idToken = renewed.idToken ?? stored.idToken;
      if (!renewed.accessToken || !idToken) throw new Error('The refresh answer lacks tokens');
      await this.adopt({ accessToken: renewed.accessToken, refreshToken: renewed.refreshToken ?? refreshToken, idToken });
    } catch (error) {
      const now = readStoredTokens(this.runtime.localStorage);
      // Another tab refreshed at the same moment and won the rotation: take its tokens.
      if (now.refreshToken && now.refreshToken !== refreshToken && now.accessToken && now.idToken) {
        try {
          await this.adopt({ accessToken: now.accessToken, refreshToken: now.refreshToken, idToken: now.idToken });
          return;
        } catch {
          // Fall through to the failure below.
        }
      }
      throw new AuthError(AuthErrorKeys.tokenRefreshFailed, { cause: error });
    }
  }

  /** Clears the local session and revokes its refresh token on the server. */
  private async dropTokens(): Promise<void> {
    const refreshToken = this.runtime.localStorage.getItem(StorageKeys.oauthRefreshToken) ?? this.session?.tokens.refreshToken;
    this.clear();
    if (refreshToken) await this.bestEffort(revokeRefreshToken(this.tokenEndpoint, refreshToken));
  }

  private async bestEffort(call: Promise<void>): Promise<void> {
    let timer: ReturnType<BrowserRuntime['setTimeout']> | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = this.runtime.setTimeout(resolve, LOGOUT_CALL_LIMIT_MS);
    });
    try {
      await Promise.race([call.catch(() => undefined), limit]);
    } finally {
      if (timer !== undefined) this.runtime.clearTimeout(timer);
    }
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
