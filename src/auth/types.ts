// The one interface the runtime uses to authenticate, implemented by the OAuth mode (src/auth/oauth)
// and the legacy mode (src/auth/legacy), so nothing outside src/auth branches on the mode.

import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';

export interface FederationConnection {
  id: string;
  name: string;
  type: string;
}

export interface CredentialsConfig {
  hasPassword: boolean;
  hasPasskeys: boolean;
  federationConnections: FederationConnection[];
}

export type MfaState = 'DISABLED' | 'REQUIRED' | 'SETUP';

export interface AuthenticateResult {
  /** False when the server did not open a session (wrong credentials). */
  session: boolean;
  mfaState: MfaState;
  tenantUserId?: string;
}

/** What a mailed set-password link stands for (GET /auth/password/{token}). */
export interface PasswordToken {
  email: string;
  purpose: 'reset' | 'signup' | 'invite';
  /**
   * The link only confirms: the signup carried a password, the identity already has one, or the app
   * has password sign-in switched off. Otherwise the user chooses a password now.
   */
  passwordChosen: boolean;
}

export interface MagicLinkSent {
  /** Seconds the link stays valid. */
  expiresIn: number;
}

/** Two-factor setup finished: the recovery code, shown to the user once. */
export interface MfaSetupFinished {
  backupCode: string;
}

/** A second factor: codes texted to a phone, or codes of an authenticator app (TOTP). */
export type MfaMethod = 'sms' | 'totp';

/** The second factors the user of a pending sign-in has, the authenticator app first. */
export interface MfaMethods {
  methods: MfaMethod[];
}

/** An authenticator-app setup: the new secret as text (base32), as an otpauth URL and as a QR code (PNG data URL). */
export interface TotpSetup {
  secret: string;
  otpauthUrl: string;
  qrCodeDataUrl: string;
}

/** One of the signed-in user's passkeys, as the profile lists them. */
export interface PasskeySummary {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** One browser the signed-in person is signed in with in this app, as the profile lists them. */
export interface SessionSummary {
  id: string;
  /** Read from the browser's User-Agent by the server; null when it names none. */
  browser: string | null;
  os: string | null;
  /** The client address of its latest sign-in or token refresh. */
  ip: string | null;
  /** The workspace it is signed in to. */
  workspace: string;
  signedInAt: string;
  lastActiveAt: string;
  /** The session this browser is using. */
  current: boolean;
}

/**
 * Whose passkey a registration adds: the user of a mailed set-password link (its token), or the
 * signed-in user (their access token).
 */
export type PasskeyRegistrant = { forgotPasswordToken: string } | { signedIn: true };

export interface WorkspaceUser {
  id: string;
  role: string;
  email: string;
  username: string;
  fullName?: string;
  onboarded: boolean;
  tenant: { id: string; name?: string | null; locale?: string | null; logo?: string | null };
}

export interface CurrentUserData {
  id: string;
  email: string;
  username: string;
  fullName: string;
  role: string;
  onboarded: boolean;
  locale: string;
  /** The workspace's plan (access-token `plan` claim), when the token names one. */
  plan?: string;
  /** The role's privileges (access-token `scope`, e.g. USER_WRITE); empty when signed out. */
  privileges?: string[];
  tenant: { id: string; name?: string; locale?: string; logo?: string; onboarded?: boolean };
}

export type AuthListener = () => void;

/**
 * What a mode may lack. The screens hide the options of a capability their client does not list
 * (src/app/appConfig.ts, src/components/SessionList.tsx); its methods then fail with SPEC.md's message.
 */
export type AuthCapability = 'passkeys' | 'magicLink' | 'federation' | 'sessions';

/** A server-stated end of a session: the membership was disabled or removed (MEMBERSHIP_ENDED). */
export type SignedOutReason = 'membershipEnded';

export interface AuthClient {
  /** The optional capabilities this mode has. */
  readonly capabilities: ReadonlySet<AuthCapability>;
  /** Start-up check: restores and verifies stored tokens, refreshing them when needed. */
  init(): Promise<void>;
  isAuthenticated(): boolean;
  currentUser(): CurrentUserData;
  /**
   * The workspace user to preselect in the picker: the signed-in one, else the one last chosen in
   * this browser; undefined when neither is known.
   */
  currentTenantUserId(): string | undefined;
  /** Access token for API calls, when one is held. */
  accessToken(): string | undefined;
  /** Headers the API client adds to every call (SPEC.md section 7 rules). */
  apiHeaders(): Record<string, string>;
  /**
   * Called by the API client before each call: renews credentials that have already expired (a
   * sleeping laptop misses the refresh timer), so the call does not fail with a needless 401.
   */
  ensureFresh(): Promise<void>;

  /** Sends the browser to the auth service's login, remembering `returnPath` (same-origin path). */
  login(returnPath?: string): Promise<void>;
  /** Finishes /auth/oauth-callback: exchanges the code and answers the path to go to next. */
  handleCallback(query: URLSearchParams): Promise<string>;
  /**
   * A hosted handover (/handover/*): exchanges the one-time code the app's back end got from
   * /handover/code/{appId} for a session of that person. Fails with "Can't init auth without a code".
   */
  exchangeHandoverCode(code: string | null | undefined): Promise<void>;
  /**
   * Clears everything held locally, revokes what the server holds, then leaves for the logout URL,
   * which returns to `postLogoutRedirectUri` (one of the app's registered post-logout URIs) when given.
   */
  logout(postLogoutRedirectUri?: string): Promise<void>;
  /**
   * Clears local state only (401 handling, opening the login screen while signed in). `reason`, when
   * the server said why the session ended, is kept for the screens until the next sign-in.
   */
  clear(reason?: SignedOutReason): void;
  /** Why the last session ended, when the server said so (the login screen tells the person). */
  signedOutReason(): SignedOutReason | undefined;

  credentialsConfig(username: string): Promise<CredentialsConfig>;
  authenticate(username: string, password: string): Promise<AuthenticateResult>;
  tenantUsers(): Promise<WorkspaceUser[]>;
  /**
   * Signs in to one workspace: finishes a sign-in on the picker, or switches a signed-in user to
   * another of their workspaces (the held tokens are revoked first). A full-page move through the
   * auth service that comes back with tokens for the chosen workspace.
   */
  switchWorkspace(tenantUserId: string): Promise<void>;
  /**
   * "Back to login" after a mailed link: continues the sign-in this browser is in the middle of, or
   * has the app start one; the screens then ask only for what is still missing. A full-page move.
   */
  continueSignIn(): void;
  /** Forgets who signed in on the auth service (keeping the app's pending sign-in), for 'Try a different email'. */
  restartSignIn(): Promise<void>;

  /** Mails a reset link; the answer is the same whether or not the account exists. */
  sendResetLink(username: string): Promise<void>;
  /** Reads a mailed set-password link; an expired, used or unknown one fails with code LINK_EXPIRED. */
  passwordToken(token: string): Promise<PasswordToken>;
  /**
   * Uses a set-password link: sets `password` (or, when the link only confirms, applies the chosen
   * one). The auth service's login session is signed in afterwards, as after authenticate().
   */
  setPassword(token: string, password?: string): Promise<AuthenticateResult>;
  /** Mails a sign-in link bound to this browser's login session. */
  sendMagicLink(username: string): Promise<MagicLinkSent>;
  /**
   * Two-factor, on a login session whose first factor passed. Texts a code to `phoneNumber` (E.164,
   * checked by the server: INVALID_PHONE_NUMBER).
   */
  startMfaUserSetup(phoneNumber: string): Promise<void>;
  /** Proves the number with the texted code (WRONG_MFA_CODE); the session is signed in afterwards. */
  finishMfaUserSetup(mfaCode: string): Promise<MfaSetupFinished>;
  /**
   * Passes the second factor with a code of `method` (by default the authenticator app when the user
   * has one, else the code texted at sign-in): WRONG_MFA_CODE, TOO_MANY_REQUESTS after five wrong app codes.
   */
  commitMfaCode(mfaCode: string, method?: MfaMethod): Promise<void>;
  /** The second factors the user of the pending sign-in has set up. */
  mfaMethods(): Promise<MfaMethods>;
  /** Starts an authenticator-app setup: a new secret to scan or type. */
  startTotpSetup(): Promise<TotpSetup>;
  /** Proves the app with one of its codes (WRONG_MFA_CODE); the session is signed in afterwards. */
  finishTotpSetup(mfaCode: string): Promise<MfaSetupFinished>;
  /** Texts a new code (the one at sign-in, or the one of a started setup). */
  resendMfaCode(): Promise<void>;
  /** Removes the phone with the recovery code (WRONG_RECOVERY_CODE), so that setup starts again. */
  resetUserMfaSetup(backupCode: string): Promise<void>;
  /** Passkey sign-in: the server's options (a challenge bound to this browser's login session). */
  passkeyAuthenticationOptions(): Promise<PublicKeyCredentialRequestOptionsJSON>;
  /** Sends the authenticator's answer; signs the login session in, answered like authenticate(). */
  verifyPasskeyAuthentication(response: AuthenticationResponseJSON): Promise<AuthenticateResult>;
  passkeyRegistrationOptions(registrant: PasskeyRegistrant): Promise<PublicKeyCredentialCreationOptionsJSON>;
  verifyPasskeyRegistration(registrant: PasskeyRegistrant, response: RegistrationResponseJSON): Promise<{ verified: boolean }>;
  /** The signed-in user's passkeys (needs the access token). */
  listPasskeys(): Promise<PasskeySummary[]>;
  /** Renames one of the signed-in user's passkeys (PASSKEY_NAME_REQUIRED for a blank name). */
  renamePasskey(id: string, name: string): Promise<void>;
  deletePasskey(id: string): Promise<void>;
  /** The signed-in person's sessions in this app (needs the access token). */
  listSessions(): Promise<SessionSummary[]>;
  /** Signs one session out (its refresh tokens die); SESSION_NOT_FOUND when it has ended already. */
  revokeSession(id: string): Promise<void>;
  /** Signs every session but this browser's out; answers how many ended. */
  revokeOtherSessions(): Promise<number>;
  /** Signs every session out, this one included, then leaves like logout(). */
  signOutEverywhere(): Promise<void>;
  /** Renews the tokens now and re-reads the user from their claims (after a profile or workspace change). */
  refresh(): Promise<void>;

  subscribe(listener: AuthListener): () => void;
}
