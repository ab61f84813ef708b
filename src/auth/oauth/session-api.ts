// The auth service's session endpoints (SERVER-CONTRACT "Auth service"). They work on the login
// session cookie of the auth origin, so every call includes credentials.

import { UnauthenticatedError } from '../../api/errors.ts';
import { requestJson, type FetchFn } from '../../api/http.ts';
import type {
  AuthenticateResult,
  CredentialsConfig,
  MagicLinkSent,
  MfaSetupFinished,
  MfaState,
  PasswordToken,
  WorkspaceUser,
} from '../types.ts';

interface AuthenticateAnswer {
  session?: boolean;
  mfaState?: MfaState;
  tenantUserId?: string;
}

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

  async commitMfaCode(mfaCode: string): Promise<void> {
    await this.postMfa<unknown>('commitMfaCode', { mfaCode });
  }

  async resendMfaCode(): Promise<void> {
    await this.postMfa<unknown>('resendMfaCode', {});
  }

  async resetUserMfaSetup(backupCode: string): Promise<void> {
    await this.postMfa<unknown>('resetUserMfaSetup', { backupCode });
  }

  tenantUsers(): Promise<WorkspaceUser[]> {
    return requestJson<WorkspaceUser[]>(this.fetch, `${this.authUrl}/auth/tenantUsers`, {
      headers: this.headers,
      credentials: 'include',
    });
  }

  /** Ends the login session on the auth origin. */
  async endSession(): Promise<void> {
    await this.fetch(`${this.authUrl}/auth/logout`, { method: 'GET', credentials: 'include' });
  }
}
