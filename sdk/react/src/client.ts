// The framework-free session of a host app: the authorization code flow with PKCE, state and nonce
// (oidc-client-ts), tokens kept in localStorage and refreshed at 80 % of their lifetime by one tab
// at a time, sign-out announced to every tab. The React part (react.tsx) only subscribes to it.
import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import { currentUserOf, decodeJwtPayload, type FoyerUser } from './claims.ts';
import { refreshDelayMs } from './refresh.ts';
import { coordinatedRefresh, TabCoordinator, type LockManagerLike, type StoredTokens } from './tabs.ts';

export interface FoyerConfig {
  /** The auth service's origin, the token issuer (e.g. http://localhost:3070). */
  authOrigin: string;
  /** The app's id, its OAuth client id. */
  appId: string;
  /** The app's callback address, registered with the app exactly. */
  redirectUri: string;
  /** Where the end of a sign-out returns; registered with the app. Defaults to the app's origin + "/". */
  postLogoutRedirectUri?: string;
  /** The hosted UI's origin, for the user-management links (e.g. http://localhost:8080). */
  hostedUiOrigin?: string;
}

export type FoyerState =
  | { status: 'loading'; user: null }
  | { status: 'signed-out'; user: null }
  | { status: 'signed-in'; user: FoyerUser; accessToken: string; expiresAt: number };

/** The hosted user-management views (docs/handover.md). */
export type UserManagementView = 'portal' | 'users' | 'workspace' | 'profile';

const LOADING: FoyerState = { status: 'loading', user: null };
const SIGNED_OUT: FoyerState = { status: 'signed-out', user: null };

interface SessionTokens extends StoredTokens {
  user: User;
}

function tokensOf(user: User | null): SessionTokens | null {
  if (!user?.access_token || user.expires_at === undefined) return null;
  return { user, accessToken: user.access_token, expiresAt: user.expires_at };
}

function browserLocks(): LockManagerLike | undefined {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  return locks
    ? { request: async (name, callback) => (await locks.request(name, callback)) as Awaited<ReturnType<typeof callback>> }
    : undefined;
}

export class FoyerClient {
  private state: FoyerState = LOADING;
  private readonly listeners = new Set<() => void>();
  private readonly manager: UserManager;
  private openTabs: TabCoordinator | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private callback: Promise<string | undefined> | undefined;

  constructor(readonly config: FoyerConfig) {
    const store = new WebStorageStateStore({ prefix: 'foyer.', store: globalThis.localStorage });
    this.manager = new UserManager({
      authority: config.authOrigin,
      client_id: config.appId,
      redirect_uri: config.redirectUri,
      post_logout_redirect_uri: config.postLogoutRedirectUri ?? `${new URL(config.redirectUri).origin}/`,
      response_type: 'code',
      scope: 'openid profile email',
      userStore: store,
      stateStore: store,
      // The SDK schedules refreshes itself (80 %, one tab at a time).
      automaticSilentRenew: false,
      monitorSession: false,
      loadUserInfo: false,
    });
  }

  /** The channel to the app's other tabs, opened again after close() (React's strict mode closes and reuses a client). */
  private get tabs(): TabCoordinator {
    if (this.openTabs) return this.openTabs;
    const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(`foyer:${this.config.appId}`) : undefined;
    const tabs = new TabCoordinator(`foyer-refresh:${this.config.appId}`, channel, browserLocks());
    tabs.onMessage((message) => {
      if (message.type === 'signed-out') this.setSignedOut();
      else void this.manager.getUser().then((user) => this.adopt(tokensOf(user)));
    });
    this.openTabs = tabs;
    return tabs;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = (): FoyerState => this.state;

  /** Loads the stored session: kept while valid, refreshed when expired and a refresh token exists. */
  async start(): Promise<void> {
    // Listening from the start: another tab may sign in, refresh or sign out at any time.
    void this.tabs;
    const stored = tokensOf(await this.manager.getUser());
    if (!stored) return this.setSignedOut();
    if (stored.expiresAt * 1000 > Date.now()) return this.adopt(stored);
    if (stored.user.refresh_token) return this.refreshNow(stored.accessToken);
    await this.manager.removeUser();
    this.setSignedOut();
  }

  /** Sends the browser to Foyer's sign-in; `returnTo` (a path of the app) comes back from the callback. */
  login(returnTo?: string): Promise<void> {
    return this.manager.signinRedirect({ nonce: crypto.randomUUID(), state: returnTo });
  }

  /** Asks the person which workspace to continue in (the hosted picker), then comes back signed in to it. */
  switchWorkspace(returnTo?: string): Promise<void> {
    return this.manager.signinRedirect({ nonce: crypto.randomUUID(), state: returnTo, prompt: 'select_account' });
  }

  /**
   * Completes the sign-in on the callback page (code, state and nonce checked); answers the
   * `returnTo` given to login(). Once per page: a second call (React's strict mode) shares the first.
   */
  handleCallback(url = globalThis.location.href): Promise<string | undefined> {
    this.callback ??= this.manager.signinRedirectCallback(url).then((user) => {
      this.adopt(tokensOf(user));
      this.tabs.announce({ type: 'signed-in' });
      return typeof user.state === 'string' ? user.state : undefined;
    });
    return this.callback;
  }

  /** Signs out of the app in every tab and ends the Foyer session (its grants and refresh tokens die). */
  async logout(): Promise<void> {
    const user = await this.manager.getUser();
    await this.manager.removeUser();
    this.setSignedOut();
    this.tabs.announce({ type: 'signed-out' });
    await this.manager.signoutRedirect({ id_token_hint: user?.id_token });
  }

  /** A link to a hosted user-management view of the signed-in workspace (the hosted UI signs in by single sign-on). */
  userManagementUrl(view: UserManagementView): string {
    const path = view === 'portal' ? '/user-management' : `/user-management/${view}`;
    return `${this.hostedUi()}${path}?${new URLSearchParams({ appId: this.config.appId }).toString()}`;
  }

  private hostedUi(): string {
    if (!this.config.hostedUiOrigin) throw new Error('FoyerProvider needs hostedUiOrigin for user-management links');
    return this.config.hostedUiOrigin;
  }

  /**
   * The same view through the hosted handover (docs/handover.md),
   * with the one-time code the app's back end got from `POST {auth}/handover/code/{appId}` for the
   * challenge of `codeVerifier` (createHandoverProof). The verifier rides in the fragment, which no
   * server sees; the hosted screen takes both out of its address at once.
   */
  userManagementHandoverUrl(view: UserManagementView, handover: { code: string; codeVerifier: string }): string {
    const args = btoa(JSON.stringify({ code: handover.code }));
    const query = new URLSearchParams({ appId: this.config.appId, flow: `user-management-${view}`, args });
    const fragment = new URLSearchParams({ codeVerifier: handover.codeVerifier });
    return `${this.hostedUi()}/handover/app?${query.toString()}#${fragment.toString()}`;
  }

  /** The current access token, for the app's own API calls (Authorization: Bearer). */
  accessToken(): string | null {
    return this.state.status === 'signed-in' ? this.state.accessToken : null;
  }

  /** Stops the refresh timer and the channel to other tabs; start() resumes both. */
  close(): void {
    clearTimeout(this.timer);
    this.openTabs?.close();
    this.openTabs = undefined;
  }

  private adopt(tokens: SessionTokens | null): void {
    if (!tokens) return this.setSignedOut();
    const user = currentUserOf(tokens.user.profile, decodeJwtPayload(tokens.accessToken));
    this.setState({ status: 'signed-in', user, accessToken: tokens.accessToken, expiresAt: tokens.expiresAt });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refreshNow(tokens.accessToken), refreshDelayMs(tokens.expiresAt, Date.now()));
  }

  private async refreshNow(scheduledFor: string): Promise<void> {
    try {
      const outcome = await coordinatedRefresh(this.tabs, scheduledFor, Date.now, {
        readStored: async () => tokensOf(await this.manager.getUser()),
        refresh: async () => tokensOf(await this.manager.signinSilent()) ?? Promise.reject(new Error('The refresh answered no tokens')),
      });
      if (outcome.kind === 'signed-out') this.setSignedOut();
      else this.adopt(outcome.tokens);
    } catch {
      // A refused refresh token (revoked, signed out elsewhere) ends the session; a token that is
      // still valid is tried again at 80 % of what is left of it.
      const stored = tokensOf(await this.manager.getUser());
      if (stored && stored.expiresAt * 1000 > Date.now() + 1000) {
        clearTimeout(this.timer);
        this.timer = setTimeout(
          () => void this.refreshNow(stored.accessToken),
          Math.max(1000, refreshDelayMs(stored.expiresAt, Date.now())),
        );
        return;
      }
      await this.manager.removeUser();
      this.setSignedOut();
    }
  }

  private setSignedOut(): void {
    clearTimeout(this.timer);
    this.setState(SIGNED_OUT);
  }

  private setState(state: FoyerState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}
