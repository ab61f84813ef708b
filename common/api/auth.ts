// The auth service's REST payloads (the /auth/* session calls on the auth origin the hosted screens
// make with the login session cookie, and the profile's calls with the API's access token), declared
// once: the server's route schemas (and so the OpenAPI document) and the runtime's clients
// (src/auth/) both use them.
import { Type, type Static, type TSchema } from 'typebox';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const DateTime = Type.String({ format: 'date-time' });

/** An e-mail in a request body (surrounding spaces are trimmed by the server). */
export const EmailField = Type.String({ maxLength: 320, pattern: '^\\s*[^@\\s]+@[^@\\s]+\\s*$' });
/**
 * A mailed link's token. Issued ones are 43 base64url characters, but any text is only looked up by
 * its hash, so a mangled link (cut, re-encoded) answers like an expired one (LINK_EXPIRED, with a way
 * to a new link) rather than as a malformed request.
 */
export const TokenField = Type.String({ minLength: 1, maxLength: 2048 });

export const UsernameBody = Type.Object({ username: EmailField });
export const TokenParams = Type.Object({ token: TokenField });

export const CredentialsConfigBody = Type.Object({ username: Type.String({ minLength: 1, maxLength: 320 }) });
export const FederationConnectionSchema = Type.Object({ id: Type.String(), name: Type.String(), type: Type.String() });
export type FederationConnection = Static<typeof FederationConnectionSchema>;
/** What the login screen offers an address; the same for every address, so it reveals no account. */
export const CredentialsConfigSchema = Type.Object({
  hasPassword: Type.Boolean(),
  hasPasskeys: Type.Boolean(),
  federationConnections: Type.Array(FederationConnectionSchema),
});
export type CredentialsConfig = Static<typeof CredentialsConfigSchema>;

export const AuthenticateBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const MfaStateSchema = Type.Union([Type.Literal('DISABLED'), Type.Literal('REQUIRED'), Type.Literal('SETUP')]);
export type MfaState = Static<typeof MfaStateSchema>;
/** A first factor passed: the login session is open, signed in unless a second factor is due. */
export const SignInAnswerSchema = Type.Object({
  session: Type.Literal(true),
  expiresIn: Type.Integer({ description: 'Seconds the login session lasts' }),
  mfaState: MfaStateSchema,
  tenantUserId: Type.Optional(Type.String({ description: 'Present when exactly one workspace is open to the user' })),
});
export type SignInAnswer = Static<typeof SignInAnswerSchema>;

/** One of the signed-in person's workspace memberships. */
export const TenantUserSchema = Type.Object({
  id: Type.String(),
  role: Type.String(),
  email: Type.String(),
  username: Type.String(),
  fullName: Type.Optional(Type.String()),
  onboarded: Type.Boolean(),
  tenant: Type.Object({
    id: Type.String(),
    name: Type.Optional(Nullable(Type.String())),
    locale: Type.Optional(Nullable(Type.String())),
    logo: Type.Optional(Nullable(Type.String())),
  }),
});
export type TenantUser = Static<typeof TenantUserSchema>;
export const TenantUserList = Type.Array(TenantUserSchema);
export const ChooseTenantUserParams = Type.Object({ tenantUserId: Type.String({ minLength: 1, maxLength: 100 }) });
export const ContinueQuery = Type.Object({ appId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) });

export const SetPasswordBody = Type.Object({ token: TokenField, password: Type.Optional(Type.String({ maxLength: 1024 })) });
/** What a mailed set-password link stands for. */
export const PasswordTokenSchema = Type.Object({
  email: Type.String(),
  purpose: Type.Union([Type.Literal('reset'), Type.Literal('signup'), Type.Literal('invite')]),
  passwordChosen: Type.Boolean({
    description: 'The link only confirms: the signup carried a password, the identity has one, or the app has passwords off',
  }),
});
export type PasswordToken = Static<typeof PasswordTokenSchema>;
export const Empty = Type.Object({});

export const MagicLinkSentSchema = Type.Object({ expiresIn: Type.Integer({ description: 'Seconds the link stays valid' }) });
export type MagicLinkSent = Static<typeof MagicLinkSentSchema>;

/** A second factor: codes texted to a phone, or codes of an authenticator app (TOTP). */
export const MfaMethodSchema = Type.Union([Type.Literal('sms'), Type.Literal('totp')]);
export type MfaMethod = Static<typeof MfaMethodSchema>;
export const MfaMethodsSchema = Type.Object({ methods: Type.Array(MfaMethodSchema) });
export type MfaMethods = Static<typeof MfaMethodsSchema>;
export const PhoneNumberBody = Type.Object({ phoneNumber: Type.String({ minLength: 1, maxLength: 40 }) });
export const MfaCodeBody = Type.Object({ mfaCode: Type.String({ minLength: 1, maxLength: 20 }) });
export const CommitMfaCodeBody = Type.Object({
  mfaCode: Type.String({ minLength: 1, maxLength: 20 }),
  method: Type.Optional(Type.Unsafe<MfaMethod>({ type: 'string', enum: ['sms', 'totp'] })),
});
export const BackupCodeBody = Type.Object({ backupCode: Type.String({ minLength: 1, maxLength: 64 }) });
/** Two-factor setup finished: the recovery code, shown once (the legacy mode adds its token fields). */
export const MfaSetupFinishedSchema = Type.Object({ backupCode: Type.String() }, { additionalProperties: Type.String() });
export type MfaSetupFinished = { backupCode: string };
/** The legacy mode's answer to a passed second factor: its auth token's fields. */
export const SecondFactorPassedSchema = Type.Object({}, { additionalProperties: Type.String() });
/** An authenticator-app setup: the new secret as text (base32), as an otpauth URL and as a QR code (PNG data URL). */
export const TotpSetupSchema = Type.Object({ secret: Type.String(), otpauthUrl: Type.String(), qrCodeDataUrl: Type.String() });
export type TotpSetup = Static<typeof TotpSetupSchema>;

/** WebAuthn options for the browser (the JSON of PublicKeyCredentialRequest/CreationOptions). */
export const WebAuthnOptionsSchema = Type.Object({}, { additionalProperties: true });
export const PasskeyTokenQuery = Type.Object({ forgotPasswordToken: Type.Optional(TokenField) });
export const PasskeyRegistered = Type.Object({ verified: Type.Literal(true) });
/** One of the signed-in user's passkeys. */
export const PasskeySummarySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: DateTime,
  lastUsedAt: Nullable(DateTime),
});
export type PasskeySummary = Static<typeof PasskeySummarySchema>;
export const PasskeyList = Type.Array(PasskeySummarySchema);

/** One browser the signed-in person is signed in with in this app. */
export const SessionSummarySchema = Type.Object({
  id: Type.String(),
  browser: Nullable(Type.String({ description: "Read from the browser's User-Agent" })),
  os: Nullable(Type.String()),
  ip: Nullable(Type.String({ description: 'The client address of its latest sign-in or token refresh' })),
  workspace: Type.String({ description: 'The workspace it is signed in to' }),
  signedInAt: DateTime,
  lastActiveAt: DateTime,
  current: Type.Boolean({ description: 'The session the calling browser is using' }),
});
export type SessionSummary = Static<typeof SessionSummarySchema>;
export const SessionList = Type.Array(SessionSummarySchema);
export const SessionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) });
export const SessionsRevoked = Type.Object({ revoked: Type.Integer({ description: 'How many sessions ended' }) });

/** The legacy mode's answer to a first factor passed: its auth token (x-auth-token) instead of a cookie. */
export const LegacySignInSchema = Type.Object({
  token: Type.String(),
  mfaState: MfaStateSchema,
  tenantUserId: Type.Optional(Type.String()),
});
export type LegacySignIn = Static<typeof LegacySignInSchema>;
export const LegacyAuthenticated = Type.Object({ authenticated: Type.Boolean() });
export const LegacyUserBody = Type.Object({
  firstName: Type.Optional(Type.String({ maxLength: 200 })),
  lastName: Type.Optional(Type.String({ maxLength: 200 })),
  consentsToPrivacyPolicy: Type.Optional(Type.Boolean()),
});
/** The signed-in member (GET /auth/currentUser on the API host) with the role's privileges. */
export const CurrentUserSchema = Type.Object({ ...TenantUserSchema.properties, privileges: Type.Array(Type.String()) });
export type CurrentUser = Static<typeof CurrentUserSchema>;

/** The token endpoint's answer, passed through by the token shorthands (/token/code|refresh/{appId}). */
export const TokenAnswerSchema = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.String(),
    expires_in: Type.Integer(),
    id_token: Type.Optional(Type.String()),
    refresh_token: Type.Optional(Type.String()),
    scope: Type.Optional(Type.String()),
    user_profile: Type.Optional(Type.Object({}, { additionalProperties: true, description: "The ID token's claims (code exchange only)" })),
  },
  { additionalProperties: true },
);
/** The shorthand code exchange (POST /token/code/{appId}): a public app proves the code with PKCE, a confidential one may authenticate instead. */
export const CodeExchangeBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 2048 }),
  redirectUri: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
  codeVerifier: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
});
export type CodeExchange = Static<typeof CodeExchangeBody>;
/** The shorthand refresh (POST /token/refresh/{appId}). */
export const RefreshBody = Type.Object({ refreshToken: Type.String({ minLength: 1, maxLength: 2048 }) });
export type Refresh = Static<typeof RefreshBody>;
/**
 * A handover code's request (POST /handover/code/{appId}): the person's access token and, required
 * for a public app, the S256 challenge of a PKCE verifier that only the hosted screen gets.
 */
export const HandoverCodeBody = Type.Object({
  accessToken: Type.String({ minLength: 1, maxLength: 4096 }),
  codeChallenge: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'base64url of the SHA-256 of the code verifier (RFC 7636 S256)' }),
  ),
  codeChallengeMethod: Type.Optional(Type.Literal('S256')),
});
export type HandoverCodeRequest = Static<typeof HandoverCodeBody>;
export const HandoverCodeSchema = Type.Object({ code: Type.String({ description: 'A one-time code of the same membership' }) });
/** The claims of the token's granted OpenID scopes (docs/connecting-an-app.md). */
export const UserinfoSchema = Type.Object(
  {},
  {
    additionalProperties: true,
    description: 'sub, onboarded, role, tenant_id, … (openid); name, … (profile); email, email_verified (email)',
  },
);
/** POST /security/setCookie's answer: the ticket the page move to a payment page names (?ticket=). */
export const PaymentMoveSchema = Type.Object({ ticket: Type.String({ description: 'Names the page move that follows (?ticket=)' }) });
export type PaymentMove = Static<typeof PaymentMoveSchema>;
