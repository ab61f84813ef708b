// Failures of the auth layer that reach a screen. `key` is the translation key the screen shows;
// the message is docs/SPEC.md's English text for it (the `en` value of that key).

export const AuthErrorKeys = {
  /** Token answer with neither an access nor a refresh token. */
  wrongCredentials: 'auth.errors.wrongCredentials',
  /** Tokens failed verification after the code exchange. */
  authenticationFailed: 'auth.errors.authenticationFailed',
  tokenRefreshFailed: 'auth.errors.tokenRefreshFailed',
  /** The callback came back without a code. */
  missingCode: 'auth.errors.missingCode',
  /** The callback came back with ?error, or with a state this browser never issued. */
  loginFailed: 'auth.errors.loginFailed',
  /** A passkey call in a mode without passkeys (the legacy mode). */
  passkeysUnavailable: 'auth.errors.passkeysUnavailable',
  /** A magic-link call in a mode without magic links (the legacy mode). */
  magicLinkUnavailable: 'auth.errors.magicLinkUnavailable',
  /** A sign-in sessions call in a mode without them (the legacy mode has tokens, not OAuth grants). */
  sessionsUnavailable: 'auth.errors.sessionsUnavailable',
} as const;

export type AuthErrorKey = (typeof AuthErrorKeys)[keyof typeof AuthErrorKeys];

/** docs/SPEC.md section 8's English texts for the keys above. */
export const authErrorTexts: Record<AuthErrorKey, string> = {
  'auth.errors.wrongCredentials': 'Wrong credentials!',
  'auth.errors.authenticationFailed': 'Authentication failed!',
  'auth.errors.tokenRefreshFailed': 'Token Refresh failed!',
  'auth.errors.missingCode': "Can't init auth without a code",
  'auth.errors.loginFailed': 'There was an error when logging in. Try again, otherwise contact support.',
  'auth.errors.passkeysUnavailable': 'Passkeys are only available via Auth API',
  'auth.errors.magicLinkUnavailable': 'Magic link are only available via Auth API',
  'auth.errors.sessionsUnavailable': 'Sign-in sessions are only available via Auth API',
};

export class AuthError extends Error {
  readonly key: AuthErrorKey;

  constructor(key: AuthErrorKey, options?: { cause?: unknown }) {
    super(authErrorTexts[key], options);
    this.name = 'AuthError';
    this.key = key;
  }
}
