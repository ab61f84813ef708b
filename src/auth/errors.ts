// Failures of the auth layer that reach a screen. `key` is the translation key the screen shows;
// the message is SPEC.md's English text for it (the `en` value of that key).

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
} as const;

export type AuthErrorKey = (typeof AuthErrorKeys)[keyof typeof AuthErrorKeys];

/** SPEC.md section 8's English texts for the keys above. */
export const authErrorTexts: Record<AuthErrorKey, string> = {
  'auth.errors.wrongCredentials': 'Wrong credentials!',
  'auth.errors.authenticationFailed': 'Authentication failed!',
  'auth.errors.tokenRefreshFailed': 'Token Refresh failed!',
  'auth.errors.missingCode': "Can't init auth without a code",
  'auth.errors.loginFailed': 'There was an error when logging in. Try again, otherwise contact support.',
};

export class AuthError extends Error {
  readonly key: AuthErrorKey;

  constructor(key: AuthErrorKey, options?: { cause?: unknown }) {
    super(authErrorTexts[key], options);
    this.name = 'AuthError';
    this.key = key;
  }
}
