// The one interface the runtime uses to authenticate, implemented by the OAuth mode (src/auth/oauth)
// and the legacy mode (src/auth/legacy), so nothing outside src/auth branches on the mode.

import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';

import type {
  CredentialsConfig,
  FederationConnection,
  MagicLinkSent,
  MfaMethod,
  MfaMethods,
  MfaSetupFinished,
  MfaState,
  PasskeySummary,
  PasswordToken,
  SessionSummary,
  TenantUser,
  TotpSetup,
} from '../../common/api/auth.ts';

// The auth service's payloads, declared once beside its route schemas (common/api/auth.ts).
export type {
  CredentialsConfig,
  FederationConnection,
  MagicLinkSent,
  MfaMethod,
  MfaMethods,
  MfaSetupFinished,
  MfaState,
  PasskeySummary,
  PasswordToken,
  SessionSummary,
  TotpSetup,
};
/** A workspace membership as the auth service lists it (GET /auth/tenantUsers). */
export type WorkspaceUser = TenantUser;

export interface AuthenticateResult {
  /** False when the server did not open a session (wrong credentials). */
  session: boolean;
  mfaState: MfaState;
  tenantUserId?: string;
}

/**
 * Whose passkey a registration adds: the user of a mailed set-password link (its token), or the
 * signed-in user (their access token).
 */
export type PasskeyRegistrant = { forgotPasswordToken: string } | { signedIn: true };

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
 * What a mode may lack. The screens hide the options of a capability their client does not have
 * (src/runtime/app-config.ts, src/components/SessionList.tsx); asked for anyway, it fails with
 * docs/SPEC.md's message (src/auth/capabilities.ts).
 */
export type AuthCapability = 'passkeys' | 'magicLink' | 'federation' | 'sessions';

/** A server-stated end of a session: the membership was disabled or removed (MEMBERSHIP_ENDED). */
export type SignedOutReason = 'membershipEnded';

/** The token session: who is signed in, with which tokens and headers, and the ways in and out. */
export interface AuthSession {
  /** Start-up check: restores and verifies stored tokens, refreshing them when needed. */
  init(): Promise<void>;
  isAuthenticated(): boolean;
  currentUser(): CurrentUserData;
  /** The workspace user of the session (or the last choice, NB_TENANT_USER_ID). */
  currentTenantUserId(): string | undefined;
  /** The access token to send (OAuth mode only). */
  accessToken(): string | undefined;
  /** The headers of docs/SPEC.md section 7 for calls to the API host. */
  apiHeaders(): Record<string, string>;
  /** Renews an access token about to expire before a call; signs out when that fails. */
  ensureFresh(): Promise<void>;
  /**
   * Starts a sign-in that comes back to `returnPath`; none once the page is leaving for a sign-out or
   * a workspace switch, which drop the tokens first: a signed-in screen's guard would otherwise start
   * one that raced the move, and could win it.
   */
  login(returnPath?: string): Promise<void>;
  /** Finishes the OAuth sign-in (the callback's query) and answers the path to continue to. */
  handleCallback(query: URLSearchParams): Promise<string>;
  /**
   * A hosted handover (/handover/*): exchanges the one-time code the app's back end got from
   * /handover/code/{appId}, with the PKCE verifier of its challenge, for a session of that person.
   * Fails with "Can't init auth without a code".
   */
  exchangeHandoverCode(code: string | null | undefined, codeVerifier: string | null): Promise<void>;
  /** Ends the session here and on the server, then leaves (to `postLogoutRedirectUri` when given). */
  logout(postLogoutRedirectUri?: string): Promise<void>;
  /** Forgets the session in this browser only, optionally saying why. */
  clear(reason?: SignedOutReason): void;
  /** Why the session ended, when the server said so. */
  signedOutReason(): SignedOutReason | undefined;
  /** Renews the tokens (or re-reads the user where there is nothing to renew). */
  refresh(): Promise<void>;
  /** Calls `listener` on every sign-in, refresh and sign-out; answers an unsubscribe function. */
  subscribe(listener: AuthListener): () => void;
}

/** The steps of a sign-in: the address, the password, the workspace. */
export interface SignInSteps {
  credentialsConfig(username: string): Promise<CredentialsConfig>;
  authenticate(username: string, password: string): Promise<AuthenticateResult>;
  tenantUsers(): Promise<WorkspaceUser[]>;
  /** Picks a workspace (the picker, or the header's switcher); the old workspace's tokens die first. */
  switchWorkspace(tenantUserId: string): Promise<void>;
  /** Goes on with the sign-in a mailed link interrupted ('Back to login'). */
  continue(): void;
  /** Forgets the sign-in under way (an empty workspace list, a membership that ended). */
  restart(): Promise<void>;
}

export interface PasswordCalls {
  sendResetLink(username: string): Promise<void>;
  /** What a mailed password link is for, and for whom. */
  token(token: string): Promise<PasswordToken>;
  /** Sets the password through a mailed link (or accepts an invitation without one); signs in. */
  set(token: string, password?: string): Promise<AuthenticateResult>;
}

export interface SecondFactorCalls {
  startUserSetup(phoneNumber: string): Promise<void>;
  finishUserSetup(mfaCode: string): Promise<MfaSetupFinished>;
  commitCode(mfaCode: string, method?: MfaMethod): Promise<void>;
  methods(): Promise<MfaMethods>;
  startTotpSetup(): Promise<TotpSetup>;
  finishTotpSetup(mfaCode: string): Promise<MfaSetupFinished>;
  resendCode(): Promise<void>;
  resetUserSetup(backupCode: string): Promise<void>;
}

export interface MagicLinkCalls {
  send(username: string): Promise<MagicLinkSent>;
}

export interface PasskeyCalls {
  authenticationOptions(): Promise<PublicKeyCredentialRequestOptionsJSON>;
  verifyAuthentication(response: AuthenticationResponseJSON): Promise<AuthenticateResult>;
  registrationOptions(registrant: PasskeyRegistrant): Promise<PublicKeyCredentialCreationOptionsJSON>;
  verifyRegistration(registrant: PasskeyRegistrant, response: RegistrationResponseJSON): Promise<{ verified: boolean }>;
  /** The signed-in user's passkeys (profile). */
  list(): Promise<PasskeySummary[]>;
  rename(id: string, name: string): Promise<void>;
  delete(id: string): Promise<void>;
}

/** The signed-in person's sign-in sessions across their workspaces in this app (profile). */
export interface SignInSessionCalls {
  list(): Promise<SessionSummary[]>;
  revoke(id: string): Promise<void>;
  /** Answers how many other sessions ended. */
  revokeOthers(): Promise<number>;
  /** Ends every session of the person, this one included, then signs out here. */
  signOutEverywhere(): Promise<void>;
}

/**
 * The token session and the calls of each capability. A mode implements only what it has: an
 * optional capability it lacks is absent, never a method that fails.
 */
export interface AuthClient extends AuthSession {
  readonly signIn: SignInSteps;
  readonly password: PasswordCalls;
  readonly mfa: SecondFactorCalls;
  readonly magicLink?: MagicLinkCalls;
  readonly passkeys?: PasskeyCalls;
  readonly sessions?: SignInSessionCalls;
  /** Social and enterprise sign-in through the auth service's /federated routes. */
  readonly federation: boolean;
}
