// The auth service's session endpoints (docs/ORIGINAL-CONTRACT.md 2.3). They work on the login
// session cookie of the auth origin, so every call includes credentials.

import { UnauthenticatedError } from '../../http/errors.ts';
import type { SignInAnswer } from '../../../common/api/auth.ts';
import { requestJson, type FetchFn } from '../../http/transport.ts';
import type {
  AuthenticateResult,
  CredentialsConfig,
  MagicLinkSent,
  MfaMethod,
  MfaMethods,
  MfaSetupFinished,
  PasskeySummary,
  PasswordToken,
  SessionSummary,
  TotpSetup,
  WorkspaceUser,
} from '../types.ts';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';

/** The sign-in answer; read defensively, as a 2xx without a session means none was opened. */
type AuthenticateAnswer = Partial<SignInAnswer>;

function sessionResult(answer: AuthenticateAnswer | undefined): AuthenticateResult {
  if (!answer?.session) return { session: false, mfaState: 'DISABLED' };
  return {
    session: true,
    mfaState: answer.mfaState ?? 'DISABLED',
    ...(answer.tenantUserId ? { tenantUserId: answer.tenantUserId } : {}),
  };
}

export class SessionApi {
  private readonly authUrl: string;
  private readonly fetch: FetchFn;
  /** Names the app when the login page was opened without a pending authorization. */
  private readonly headers: Record<string, string>;

  constructor(authUrl: string, appId: string, fetch: FetchFn) {
    this.authUrl = authUrl;
    this.fetch = fetch;
    this.headers = appId ? { 'x-app-id': appId } : {};
  }

  credentialsConfig(username: string): Promise<CredentialsConfig> {
    return requestJson<CredentialsConfig>(this.fetch, `${this.authUrl}/auth/credentialsConfig`, {
      method: 'POST',
      body: { username },
      headers: this.headers,
      credentials: 'include',
    });
  }

  /** Wrong credentials (a 401, or an answer without a session) come back as `session: false`. */
  async authenticate(username: string, password: string): Promise<AuthenticateResult> {
    let answer: AuthenticateAnswer | undefined;
    try {
      answer = await requestJson<AuthenticateAnswer>(this.fetch, `${this.authUrl}/auth/authenticate`, {
        method: 'POST',
        body: { username, password },
        headers: this.headers,
        credentials: 'include',
      });
    } catch (error) {
      if (error instanceof UnauthenticatedError) return { session: false, mfaState: 'DISABLED' };
      throw error;
    }
    return sessionResult(answer);
  }

  async sendResetLink(username: string): Promise<void> {
    await requestJson<unknown>(this.fetch, `${this.authUrl}/auth/password`, {
      method: 'POST',
      body: { username },
      headers: this.headers,
      credentials: 'include',
    });
  }

  passwordToken(token: string): Promise<PasswordToken> {
    return requestJson<PasswordToken>(this.fetch, `${this.authUrl}/auth/password/${encodeURIComponent(token)}`, {
      headers: this.headers,
      credentials: 'include',
    });
  }

  /** The link signs the login session in: the answer reads like authenticate's. */
  async setPassword(token: string, password?: string): Promise<AuthenticateResult> {
    const answer = await requestJson<AuthenticateAnswer>(this.fetch, `${this.authUrl}/auth/password`, {
      method: 'PUT',
      body: password === undefined ? { token } : { token, password },
      headers: this.headers,
      credentials: 'include',
    });
    return sessionResult(answer);
  }

  sendMagicLink(username: string): Promise<MagicLinkSent> {
    return requestJson<MagicLinkSent>(this.fetch, `${this.authUrl}/auth/magic-link`, {
      method: 'POST',
      body: { username },
      headers: this.headers,
      credentials: 'include',
    });
  }

  /** The two-factor calls: a POST with one field each, answered with nothing but the setup's recovery code. */
  private postMfa<T>(path: string, body: Record<string, string>): Promise<T> {
    return requestJson<T>(this.fetch, `${this.authUrl}/auth/${path}`, {
      method: 'POST',
      body,
      headers: this.headers,
      credentials: 'include',
    });
  }

  async startMfaUserSetup(phoneNumber: string): Promise<void> {
    await this.postMfa<unknown>('startMfaUserSetup', { phoneNumber });
  }

  finishMfaUserSetup(mfaCode: string): Promise<MfaSetupFinished> {
    return this.postMfa<MfaSetupFinished>('finishMfaUserSetup', { mfaCode });
  }

  async commitMfaCode(mfaCode: string, method?: MfaMethod): Promise<void> {
    await this.postMfa<unknown>('commitMfaCode', method ? { mfaCode, method } : { mfaCode });
  }

  mfaMethods(): Promise<MfaMethods> {
    return requestJson<MfaMethods>(this.fetch, `${this.authUrl}/auth/mfaMethods`, {
      headers: this.headers,
      credentials: 'include',
    });
  }

  startTotpSetup(): Promise<TotpSetup> {
    return this.postMfa<TotpSetup>('startTotpSetup', {});
  }

  finishTotpSetup(mfaCode: string): Promise<MfaSetupFinished> {
    return this.postMfa<MfaSetupFinished>('finishTotpSetup', { mfaCode });
  }

  async resendMfaCode(): Promise<void> {
    await this.postMfa<unknown>('resendMfaCode', {});
  }

  async resetUserMfaSetup(backupCode: string): Promise<void> {
    await this.postMfa<unknown>('resetUserMfaSetup', { backupCode });
  }

  passkeyAuthenticationOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
    return requestJson<PublicKeyCredentialRequestOptionsJSON>(this.fetch, `${this.authUrl}/auth/passkeys/authentication-options`, {
      headers: this.headers,
      credentials: 'include',
    });
  }

  /** A refused passkey (a 401) comes back as `session: false`, like wrong credentials. */
  async verifyPasskeyAuthentication(response: AuthenticationResponseJSON): Promise<AuthenticateResult> {
    let answer: AuthenticateAnswer | undefined;
    try {
      answer = await requestJson<AuthenticateAnswer>(this.fetch, `${this.authUrl}/auth/passkeys/verify-authentication`, {
        method: 'POST',
        body: response,
        headers: this.headers,
        credentials: 'include',
      });
    } catch (error) {
      if (error instanceof UnauthenticatedError) return { session: false, mfaState: 'DISABLED' };
      throw error;
    }
    return sessionResult(answer);
  }

  /**
   * Registration calls name the registrant: a mailed link's token in the query, or the signed-in
   * user's access token (`authorization`).
   */
  private registrationUrl(path: string, forgotPasswordToken: string | undefined): string {
    const query = forgotPasswordToken === undefined ? '' : `?forgotPasswordToken=${encodeURIComponent(forgotPasswordToken)}`;
    return `${this.authUrl}/auth/passkeys/${path}${query}`;
  }

  passkeyRegistrationOptions(
    forgotPasswordToken: string | undefined,
    authorization: Record<string, string>,
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    return requestJson<PublicKeyCredentialCreationOptionsJSON>(
      this.fetch,
      this.registrationUrl('registration-options', forgotPasswordToken),
      {
        headers: { ...this.headers, ...authorization },
        credentials: 'include',
      },
    );
  }

  verifyPasskeyRegistration(
    forgotPasswordToken: string | undefined,
    authorization: Record<string, string>,
    response: RegistrationResponseJSON,
  ): Promise<{ verified: boolean }> {
    return requestJson<{ verified: boolean }>(this.fetch, this.registrationUrl('verify-registration', forgotPasswordToken), {
      method: 'POST',
      body: response,
      headers: { ...this.headers, ...authorization },
      credentials: 'include',
    });
  }

  listPasskeys(authorization: Record<string, string>): Promise<PasskeySummary[]> {
    return requestJson<PasskeySummary[]>(this.fetch, `${this.authUrl}/auth/passkeys`, { headers: { ...this.headers, ...authorization } });
  }

  async renamePasskey(id: string, name: string, authorization: Record<string, string>): Promise<void> {
    await requestJson<unknown>(this.fetch, `${this.authUrl}/auth/passkeys/${encodeURIComponent(id)}`, {
      method: 'PUT',
      body: { name },
      headers: { ...this.headers, ...authorization },
    });
  }

  async deletePasskey(id: string, authorization: Record<string, string>): Promise<void> {
    await requestJson<unknown>(this.fetch, `${this.authUrl}/auth/passkeys/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      headers: { ...this.headers, ...authorization },
    });
  }

  listSessions(authorization: Record<string, string>): Promise<SessionSummary[]> {
    return requestJson<SessionSummary[]>(this.fetch, `${this.authUrl}/auth/sessions`, { headers: { ...this.headers, ...authorization } });
  }

  async revokeSession(id: string, authorization: Record<string, string>): Promise<void> {
    await requestJson<unknown>(this.fetch, `${this.authUrl}/auth/sessions/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      headers: { ...this.headers, ...authorization },
    });
  }

  async revokeOtherSessions(authorization: Record<string, string>): Promise<number> {
    const answer = await requestJson<{ revoked: number }>(this.fetch, `${this.authUrl}/auth/sessions/revoke-others`, {
      method: 'POST',
      headers: { ...this.headers, ...authorization },
    });
    return answer.revoked;
  }

  /** With credentials: this browser's login session ends too. */
  async revokeAllSessions(authorization: Record<string, string>): Promise<void> {
    await requestJson<unknown>(this.fetch, `${this.authUrl}/auth/sessions/revoke-all`, {
      method: 'POST',
      headers: { ...this.headers, ...authorization },
      credentials: 'include',
    });
  }

  tenantUsers(): Promise<WorkspaceUser[]> {
    return requestJson<WorkspaceUser[]>(this.fetch, `${this.authUrl}/auth/tenantUsers`, {
      headers: this.headers,
      credentials: 'include',
    });
  }

  /** Ends the login session on the auth origin. */
  async restartSignIn(): Promise<void> {
    await requestJson<unknown>(this.fetch, `${this.authUrl}/auth/restart`, { method: 'POST', credentials: 'include' });
  }
}
