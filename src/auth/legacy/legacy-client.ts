// The legacy implementation of AuthClient (docs/SPEC.md section 7 "Legacy mode"): the /auth-proxy calls
// on the API host with an opaque auth token (NB_AUTH_TOKEN), joined to the MFA token (NB_MFA_TOKEN)
// once a second factor passed, and the chosen workspace user (NB_TENANT_USER_ID). Signed in when the
// token and the workspace user are stored and the server confirms them. Passkeys, magic links,
// federation and the OAuth sessions do not exist in this mode, so it has none of their calls.

import { apiHeaderRules } from '../../http/headers.ts';
import { requestJson, type JsonRequest } from '../../http/transport.ts';
import type { ClientConfig } from '../../config.ts';
import { AuthError, AuthErrorKeys } from '../errors.ts';
import { safeReturnPath } from '../return-path.ts';
import type { BrowserRuntime } from '../runtime.ts';
import { sessionKeys, StorageKeys } from '../storage-keys.ts';
import type {
  AuthClient,
  AuthenticateResult,
  AuthListener,
  CurrentUserData,
  MfaMethods,
  MfaSetupFinished,
  MfaState,
  PasswordCalls,
  PasswordToken,
  SecondFactorCalls,
  SignedOutReason,
  SignInSteps,
  TotpSetup,
  WorkspaceUser,
} from '../types.ts';
import { fallbackUserData } from '../user.ts';
import type { CurrentUser, LegacySignIn } from '../../../common/api/auth.ts';

/** POST /auth-proxy/authenticate and PUT /auth-proxy/password (docs/ORIGINAL-CONTRACT.md 2.3), read defensively. */
type SignInAnswer = Partial<LegacySignIn>;

/** GET /auth/currentUser: the picker's entry of the signed-in workspace user, with its privileges (read defensively). */
type CurrentUserAnswer = WorkspaceUser & Partial<Pick<CurrentUser, 'privileges'>>;

export class LegacyClient implements AuthClient {
  readonly federation = false;

  readonly signIn: SignInSteps = {
    /** docs/SPEC.md section 3: in legacy mode everyone signs in with a password. */
    credentialsConfig: async () => ({ hasPassword: true, hasPasskeys: false, federationConnections: [] }),
    authenticate: async (username, password) =>
      this.adoptSignIn(await this.call<SignInAnswer>('POST', '/auth-proxy/authenticate', { username, password })),
    tenantUsers: () => this.call<WorkspaceUser[]>('GET', '/auth-proxy/tenantUsers'),
    /** docs/SPEC.md section 2: the choice continues to /onboard, carrying the target address. */
    switchWorkspace: async (tenantUserId) => {
      this.leaving = true;
      this.runtime.localStorage.setItem(StorageKeys.tenantUserId, tenantUserId);
      const target = this.runtime.sessionStorage.getItem(StorageKeys.legacyReturnPath);
      this.runtime.sessionStorage.removeItem(StorageKeys.legacyReturnPath);
      const query = target ? `?${new URLSearchParams({ target }).toString()}` : '';
      this.runtime.redirect(`${this.uiUrl()}/onboard${query}`);
    },
    /** A held token (a set password signs in) goes on to the workspace choice; otherwise the login. */
    continue: () => {
      const next = !this.stored(StorageKeys.authToken)
        ? '/auth/login'
        : this.owedFactor === 'REQUIRED'
          ? '/auth/mfa/required'
          : this.owedFactor === 'SETUP'
            ? '/auth/mfa/setup'
            : '/auth/choose-user';
      this.runtime.redirect(`${this.uiUrl()}${next}`);
    },
    restart: () => this.deauthenticate(),
  };

  readonly password: PasswordCalls = {
    sendResetLink: async (username) => {
      await this.call('POST', '/auth-proxy/password', { username });
    },
    token: (token) => this.call<PasswordToken>('GET', `/auth-proxy/password/${encodeURIComponent(token)}`),
    set: async (token, password) => {
      const body = password === undefined ? { token } : { token, password };
      return this.adoptSignIn(await this.call<SignInAnswer>('PUT', '/auth-proxy/password', body));
    },
  };

  readonly mfa: SecondFactorCalls = {
    startUserSetup: async (phoneNumber) => {
      await this.call('POST', '/auth-proxy/startMfaUserSetup', { phoneNumber });
    },
    finishUserSetup: async (mfaCode) =>
      this.adoptMfaToken(await this.call<MfaSetupFinished & { mfaToken: string }>('POST', '/auth-proxy/finishMfaUserSetup', { mfaCode })),
    commitCode: async (mfaCode, method) => {
      this.adoptMfaToken(
        await this.call<{ mfaToken: string }>('POST', '/auth-proxy/commitMfaCode', method ? { mfaCode, method } : { mfaCode }),
      );
    },
    methods: () => this.call<MfaMethods>('GET', '/auth-proxy/mfaMethods'),
    startTotpSetup: () => this.call<TotpSetup>('POST', '/auth-proxy/startTotpSetup'),
    finishTotpSetup: async (mfaCode) =>
      this.adoptMfaToken(await this.call<MfaSetupFinished & { mfaToken: string }>('POST', '/auth-proxy/finishTotpSetup', { mfaCode })),
    resendCode: async () => {
      await this.call('POST', '/auth-proxy/resendMfaCode');
    },
    resetUserSetup: async (backupCode) => {
      await this.call('POST', '/auth-proxy/resetUserMfaSetup', { backupCode });
    },
  };

  private readonly config: ClientConfig;
  private readonly runtime: BrowserRuntime;
  private readonly apiUrl: string;
  private readonly listeners = new Set<AuthListener>();
  private user: CurrentUserData | undefined;
  private endReason: SignedOutReason | undefined;
  /** Set by a sign-out or a workspace switch, which leave the page (login). */
  private leaving = false;
  private watchingOtherTabs = false;
  /** The second factor the last sign-in still owes, until a code passes (where "continue" leads). */
  private owedFactor: MfaState = 'DISABLED';

  constructor(config: ClientConfig, runtime: BrowserRuntime) {
    this.config = config;
    this.runtime = runtime;
    this.apiUrl = config.apiUrl.replace(/\/+$/, '');
  }

  async init(): Promise<void> {
    if (!this.watchingOtherTabs) {
      this.watchingOtherTabs = true;
      this.runtime.onStorageChange((key) => this.followOtherTab(key));
    }
    try {
      await this.loadUser();
    } catch {
      this.clear();
    }
  }

  isAuthenticated(): boolean {
    return this.user !== undefined;
  }

  currentUser(): CurrentUserData {
    return this.user ?? fallbackUserData();
  }

  currentTenantUserId(): string | undefined {
    return this.stored(StorageKeys.tenantUserId);
  }

  accessToken(): undefined {
    return undefined;
  }

  apiHeaders(): Record<string, string> {
    return apiHeaderRules({
      authToken: this.stored(StorageKeys.authToken),
      mfaToken: this.stored(StorageKeys.mfaToken),
      tenantUserId: this.stored(StorageKeys.tenantUserId),
      appId: this.config.appId,
    });
  }

  /** Legacy tokens are not renewed: they live until they expire or are revoked. */
  async ensureFresh(): Promise<void> {}

  async login(returnPath?: string): Promise<void> {
    if (this.leaving) return;
    const path = safeReturnPath(returnPath, this.config.uiUrl);
    if (path) this.runtime.sessionStorage.setItem(StorageKeys.legacyReturnPath, path);
    this.runtime.redirect(`${this.uiUrl()}/auth/login`);
  }

  /** There is no authorization code in this mode. */
  async handleCallback(): Promise<string> {
    throw new AuthError(AuthErrorKeys.loginFailed);
  }

  /** Handover codes are OAuth authorization codes; this mode has none. */
  async exchangeHandoverCode(code: string | null | undefined): Promise<void> {
    throw new AuthError(code ? AuthErrorKeys.loginFailed : AuthErrorKeys.missingCode);
  }

  async logout(postLogoutRedirectUri?: string): Promise<void> {
    this.leaving = true;
    await this.deauthenticate();
    this.runtime.redirect(postLogoutRedirectUri ?? `${this.uiUrl()}/auth/login`);
  }

  clear(reason?: SignedOutReason): void {
    this.endReason = reason;
    const hadUser = this.user !== undefined;
    this.user = undefined;
    let hadStoredKeys = false;
    for (const key of sessionKeys) {
      if (this.runtime.localStorage.getItem(key) !== null) hadStoredKeys = true;
      this.runtime.localStorage.removeItem(key);
    }
    if (hadUser || hadStoredKeys) this.notify();
  }

  signedOutReason(): SignedOutReason | undefined {
    return this.endReason;
  }

  /** Re-reads the user (after a profile or workspace change); nothing to renew. */
  refresh(): Promise<void> {
    return this.loadUser();
  }

  subscribe(listener: AuthListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private stored(key: string): string | undefined {
    return this.runtime.localStorage.getItem(key) ?? undefined;
  }

  private uiUrl(): string {
    return this.config.uiUrl.replace(/\/+$/, '');
  }

  private call<T>(method: NonNullable<JsonRequest['method']>, path: string, body?: unknown): Promise<T> {
    return requestJson<T>(this.runtime.fetch, `${this.apiUrl}${path}`, {
      method,
      headers: this.apiHeaders(),
      ...(body === undefined ? {} : { body }),
    });
  }

  /**
   * Signed in when the token and the workspace user are stored and the server confirms them. A token
   * alone is a sign-in still choosing its workspace (or waiting for its second factor): kept, not signed in.
   */
  private async loadUser(): Promise<void> {
    if (!this.stored(StorageKeys.authToken) || !this.stored(StorageKeys.tenantUserId)) {
      this.setUser(undefined);
      return;
    }
    const { authenticated } = await this.call<{ authenticated: boolean }>('GET', '/auth-proxy/authenticated');
    if (!authenticated) {
      this.clear();
      return;
    }
    const answer = await this.call<CurrentUserAnswer>('GET', '/auth/currentUser');
    this.endReason = undefined;
    this.setUser({
      id: answer.id,
      email: answer.email,
      username: answer.username,
      fullName: answer.fullName ?? '',
      role: answer.role,
      onboarded: answer.onboarded,
      locale: answer.tenant.locale ?? 'en',
      privileges: answer.privileges ?? [],
      tenant: {
        id: answer.tenant.id,
        ...(answer.tenant.name ? { name: answer.tenant.name } : {}),
        ...(answer.tenant.locale ? { locale: answer.tenant.locale } : {}),
        ...(answer.tenant.logo ? { logo: answer.tenant.logo } : {}),
      },
    });
  }

  private setUser(user: CurrentUserData | undefined): void {
    const changed = user !== undefined || this.user !== undefined;
    this.user = user;
    if (changed) this.notify();
  }

  /** A new sign-in replaces whatever this browser held: its token only, the workspace is chosen next. */
  private adoptSignIn(answer: SignInAnswer): AuthenticateResult {
    if (!answer.token) return { session: false, mfaState: 'DISABLED' };
    this.clear();
    this.runtime.localStorage.setItem(StorageKeys.authToken, answer.token);
    this.owedFactor = answer.mfaState ?? 'DISABLED';
    // No tenantUserId: in legacy mode the picker always follows (docs/SPEC.md section 4).
    return { session: true, mfaState: this.owedFactor };
  }

  private adoptMfaToken<T extends { mfaToken: string }>(answer: T): Omit<T, 'mfaToken'> {
    const { mfaToken, ...rest } = answer;
    this.runtime.localStorage.setItem(StorageKeys.mfaToken, mfaToken);
    this.owedFactor = 'DISABLED';
    return rest;
  }

  /** Revokes the held token on the server (best effort) and forgets it here. */
  private async deauthenticate(): Promise<void> {
    if (this.stored(StorageKeys.authToken)) await this.call('GET', '/auth-proxy/deauthenticate').catch(() => undefined);
    this.clear();
  }

  /** Tabs share the token: a sign-out elsewhere ends this tab's session, a workspace chosen elsewhere is adopted. */
  private followOtherTab(key: string | null): void {
    if (key !== null && key !== StorageKeys.authToken && key !== StorageKeys.tenantUserId && key !== StorageKeys.mfaToken) return;
    this.loadUser().catch(() => this.clear());
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
