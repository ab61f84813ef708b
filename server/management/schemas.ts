// The management API's request and response schemas (TypeBox: JSON Schema with static types). Shapes
// follow the original product's Node client (@nebulr-group/nblocks-ts-client, ORIGINAL-CONTRACT.md
// section 4); the OpenAPI document is made from them (server/management/openapi.ts).
import { Type, type Static } from 'typebox';
import { PaymentStatus } from '../../common/api/models.ts';
import { MAX_NAME_LENGTH } from '../graphql/input.ts';
import { MAX_PAGE_SIZE } from '../graphql/users/list.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** Ids of workspaces and members: UUIDs here, anything id-like from other stores; nothing longer. */
export const Id = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' });
export const IdParams = Type.Object({ id: Id });
export const TenantHeaders = Type.Object({ 'x-tenant-id': Id }, { additionalProperties: true });

export const Page = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: MAX_PAGE_SIZE })),
});
export type PageQuery = Static<typeof Page>;

export const ErrorBody = Type.Object({
  statusCode: Type.Integer(),
  message: Type.String(),
  error: Type.String({ description: "Foyer's code" }),
  code: Type.Optional(Type.String({ description: "The original product's code, where one fits (e.g. NBLOCKS_CONFLICT)" })),
  fields: Type.Optional(Type.Record(Type.String(), Type.String(), { description: "Each bad field's first problem, in English" })),
  details: Type.Optional(
    Type.Array(
      Type.Object({
        path: Type.String({ description: 'A JSON pointer into the request body, e.g. /owner/email' }),
        code: Type.String({ description: "A stable code: ajv's keyword where the schema found the problem" }),
        params: Type.Record(Type.String(), Type.Unknown(), { description: 'The values the message names' }),
        message: Type.String(),
      }),
      { description: 'Each problem with the input, coded' },
    ),
  ),
});

const PriceOffer = Type.Object({ currency: Type.String({ maxLength: 10 }), recurrenceInterval: Type.String({ maxLength: 20 }) });

export const CreateTenantBody = Type.Object({
  owner: Type.Object({
    email: Type.String({ minLength: 1, maxLength: 320 }),
    firstName: Type.Optional(Type.String({ maxLength: MAX_NAME_LENGTH })),
    lastName: Type.Optional(Type.String({ maxLength: MAX_NAME_LENGTH })),
    muteNotifications: Type.Optional(Type.Boolean()),
  }),
  name: Type.Optional(Type.String({ maxLength: MAX_NAME_LENGTH })),
  plan: Type.Optional(Type.String({ maxLength: 100 })),
  priceOffer: Type.Optional(PriceOffer),
  locale: Type.Optional(Type.String({ maxLength: 20 })),
  logo: Type.Optional(Type.String({ maxLength: 2000 })),
  onboarded: Type.Optional(Type.Boolean()),
  metadata: Type.Optional(Type.Record(Type.String(), Type.String())),
});
export type CreateTenantBody = Static<typeof CreateTenantBody>;

export const UpdateTenantBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: MAX_NAME_LENGTH })),
  locale: Type.Optional(Type.String({ maxLength: 20 })),
  logo: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  mfa: Type.Optional(Type.Boolean()),
  federationConnection: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  onboarded: Type.Optional(Type.Boolean()),
  metadata: Type.Optional(Type.Record(Type.String(), Type.String())),
});
export type UpdateTenantBody = Static<typeof UpdateTenantBody>;

export const Plan = Type.Object({
  id: Type.String(),
  key: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  trial: Type.Boolean(),
  trialDays: Type.Integer(),
  prices: Type.Array(Type.Object({ amount: Type.Number(), currency: Type.String(), recurrenceInterval: Type.String() })),
});
export const PlanList = Type.Array(Plan);
export const TaxView = Type.Object({ id: Type.String(), countryCode: Type.String(), name: Type.String(), percentage: Type.Number() });
export const TaxList = Type.Array(TaxView);
export const NoContent = Type.Null({ description: 'No content' });

export const PaymentDetails = Type.Object({
  status: PaymentStatus,
  details: Type.Object({
    plan: Nullable(Plan),
    price: Nullable(Type.Object({ amount: Type.Number(), currency: Type.String(), recurrenceInterval: Type.String() })),
    trial: Type.Boolean(),
    trialDaysLeft: Type.Integer(),
  }),
});
export const PlanDetailsBody = Type.Object({ planKey: Type.String({ minLength: 1, maxLength: 100 }), priceOffer: PriceOffer });

export const CreateUserBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 320, description: 'The e-mail address' }),
  role: Type.Optional(Type.String({ maxLength: 50 })),
  firstName: Type.Optional(Type.String({ maxLength: MAX_NAME_LENGTH })),
  lastName: Type.Optional(Type.String({ maxLength: MAX_NAME_LENGTH })),
  muteNotifications: Type.Optional(Type.Boolean()),
  customParams: Type.Optional(Type.Record(Type.String(), Type.String())),
});
export type CreateUserBody = Static<typeof CreateUserBody>;

export const UpdateUserBody = Type.Object({
  role: Type.Optional(Type.String({ maxLength: 50 })),
  enabled: Type.Optional(Type.Boolean()),
  teams: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })),
  firstName: Type.Optional(Type.String({ maxLength: MAX_NAME_LENGTH })),
  lastName: Type.Optional(Type.String({ maxLength: MAX_NAME_LENGTH })),
  phoneNumber: Type.Optional(Type.String({ maxLength: 50 })),
  onboarded: Type.Optional(Type.Boolean()),
  consentsToPrivacyPolicy: Type.Optional(Type.Boolean()),
});
export type UpdateUserBody = Static<typeof UpdateUserBody>;

export const PasswordLink = Type.String({ format: 'uri', description: 'A link that lets the member set a password' });

export const Privilege = Type.Object({ id: Type.String(), key: Type.String(), description: Nullable(Type.String()) });
export const Role = Type.Object({
  id: Type.String(),
  key: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  isDefault: Type.Boolean(),
  privileges: Type.Array(Privilege),
});

export const AppModel = Type.Object({
  id: Type.String(),
  name: Type.String(),
  uiUrl: Nullable(Type.String()),
  logo: Nullable(Type.String()),
  websiteUrl: Nullable(Type.String()),
  privacyPolicyUrl: Nullable(Type.String()),
  termsOfServiceUrl: Nullable(Type.String()),
  passkeysEnabled: Type.Boolean(),
  magicLinkEnabled: Type.Boolean(),
  mfaEnabled: Type.Boolean(),
  stripeEnabled: Type.Boolean(),
  googleSsoEnabled: Type.Boolean(),
  linkedinSsoEnabled: Type.Boolean(),
  appleSsoEnabled: Type.Boolean(),
  githubSsoEnabled: Type.Boolean(),
  facebookSsoEnabled: Type.Boolean(),
  azureAdSsoEnabled: Type.Boolean(),
  onboardingFlow: Nullable(Type.String()),
  tenantSelfSignup: Type.Boolean(),
  redirectUris: Type.Array(Type.String()),
  defaultCallbackUri: Nullable(Type.String()),
  accessTokenTTL: Type.Integer(),
  refreshTokenTTL: Type.Integer(),
});

export const CredentialsState = Type.Object({
  stripeCredentialsAdded: Type.Boolean(),
  googleCredentialsAdded: Type.Boolean(),
  linkedinCredentialsAdded: Type.Boolean(),
  appleCredentialsAdded: Type.Boolean(),
  githubCredentialsAdded: Type.Boolean(),
  facebookCredentialsAdded: Type.Boolean(),
  azureAdCredentialsAdded: Type.Boolean(),
  azureMarketplaceCredentialsAdded: Type.Boolean(),
});

export const CustomParamsConfig = Type.Array(
  Type.Object({ label: Type.String(), type: Type.String(), userLabel: Type.String(), regex: Type.String(), required: Type.Boolean() }),
);

const SettingUrl = Nullable(Type.String({ maxLength: 2000 }));

/**
 * PUT /app: the AppModel fields Foyer keeps a setting for, each optional (absent keeps what is live).
 * Other fields pass the schema and are refused by name (server/management/app-settings.ts), so a
 * misspelt setting is never dropped silently.
 */
export const UpdateAppBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 100 })),
    uiUrl: Type.Optional(SettingUrl),
    logo: Type.Optional(SettingUrl),
    websiteUrl: Type.Optional(SettingUrl),
    privacyPolicyUrl: Type.Optional(SettingUrl),
    termsOfServiceUrl: Type.Optional(SettingUrl),
    passkeysEnabled: Type.Optional(Type.Boolean()),
    magicLinkEnabled: Type.Optional(Type.Boolean()),
    mfaEnabled: Type.Optional(Type.Boolean()),
    googleSsoEnabled: Type.Optional(Type.Boolean()),
    linkedinSsoEnabled: Type.Optional(Type.Boolean()),
    appleSsoEnabled: Type.Optional(Type.Boolean()),
    githubSsoEnabled: Type.Optional(Type.Boolean()),
    facebookSsoEnabled: Type.Optional(Type.Boolean()),
    azureAdSsoEnabled: Type.Optional(Type.Boolean()),
    onboardingFlow: Type.Optional(Nullable(Type.Union([Type.Literal('B2B'), Type.Literal('B2C')]))),
    tenantSelfSignup: Type.Optional(Type.Boolean()),
    redirectUris: Type.Optional(Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 20 })),
    defaultCallbackUri: Type.Optional(Type.String({ maxLength: 2000, description: 'Moved (or added) to the front of redirectUris' })),
    accessTokenTTL: Type.Optional(Type.Integer()),
    refreshTokenTTL: Type.Optional(Type.Integer()),
  },
  { additionalProperties: true },
);
export type UpdateAppBody = Static<typeof UpdateAppBody>;

const Secret = Type.String({ maxLength: 2000, description: 'Stored encrypted, never answered; empty removes it' });

/** PUT /app/credentials in the original client's UpdateCredentials shape. */
export const CredentialsBody = Type.Object(
  {
    stripeSecretKey: Type.Optional(Secret),
    stripePublicKey: Type.Optional(Type.String({ maxLength: 500 })),
    stripeWebhookSecret: Type.Optional(Secret),
    googleClientId: Type.Optional(Type.String({ maxLength: 500 })),
    googleClientSecret: Type.Optional(Secret),
    linkedinClientId: Type.Optional(Type.String({ maxLength: 500 })),
    linkedinClientSecret: Type.Optional(Secret),
    githubClientId: Type.Optional(Type.String({ maxLength: 500 })),
    githubClientSecret: Type.Optional(Secret),
    facebookAppId: Type.Optional(Type.String({ maxLength: 500 })),
    facebookAppSecret: Type.Optional(Secret),
    microsoftAzureADClientId: Type.Optional(Type.String({ maxLength: 500 })),
    microsoftAzureADClientSecret: Type.Optional(Secret),
    appleClientId: Type.Optional(Type.String({ maxLength: 500 })),
    appleTeamId: Type.Optional(Type.String({ maxLength: 100, description: "Apple: the developer team id (the client secret's iss)" })),
    appleKeyId: Type.Optional(Type.String({ maxLength: 100, description: "Apple: the private key's id (the client secret's kid)" })),
    applePrivateKey: Type.Optional(
      Type.String({
        maxLength: 2000,
        description: 'Apple: the .p8 private key (PEM) Foyer signs each client secret with; stored encrypted, never answered',
      }),
    ),
  },
  { additionalProperties: true },
);
export type CredentialsBody = Static<typeof CredentialsBody>;

export const CustomParamsConfigBody = Type.Array(
  Type.Object({
    label: Type.String({ maxLength: 50 }),
    type: Type.String({ maxLength: 20 }),
    userLabel: Type.String({ maxLength: 100 }),
    regex: Type.Optional(Type.String({ maxLength: 500 })),
    required: Type.Optional(Type.Boolean()),
    options: Type.Optional(Type.Array(Type.Object({ value: Type.String({ maxLength: 50 }), label: Type.String({ maxLength: 100 }) }))),
  }),
  { maxItems: 20 },
);
export type CustomParamsConfigBody = Static<typeof CustomParamsConfigBody>;

export const PlanBody = Type.Object({
  key: Type.String({ maxLength: 40 }),
  name: Type.String({ maxLength: 100 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  trial: Type.Optional(Type.Boolean()),
  trialDays: Type.Optional(Type.Integer()),
  prices: Type.Array(Type.Object({ amount: Type.Number(), currency: Type.String({ maxLength: 3 }), recurrenceInterval: Type.String() }), {
    maxItems: 12,
  }),
});
export type PlanBody = Static<typeof PlanBody>;

export const TaxBody = Type.Object({
  countryCode: Type.String({ maxLength: 2 }),
  name: Type.String({ maxLength: 100 }),
  percentage: Type.Number(),
});
export type TaxBody = Static<typeof TaxBody>;

/** Plans are told apart by key, taxes by "countryCode:name" (server/payments/catalog.ts). */
export const CatalogIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });

/** The original client posts {} and checks out the plan waiting; a plan named here is chosen first. */
export const CheckoutBody = Type.Optional(
  Type.Object({ planKey: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), priceOffer: Type.Optional(PriceOffer) }),
);
export const CheckoutResponse = Type.Object({
  id: Type.String({ description: "The provider's checkout session id" }),
  url: Type.String({ format: 'uri', description: 'The hosted checkout page' }),
  publicKey: Nullable(Type.String({ description: "The app's Stripe publishable key (null with the test-mode provider)" })),
});
export const PortalResponse = Type.Object({ url: Type.String({ format: 'uri' }) });

export const MemberEmailBody = Type.Object({
  subject: Type.String({ minLength: 1, maxLength: 200 }),
  emailBody: Type.String({ minLength: 1, maxLength: 10_000, description: 'Plain text (never markup); a blank line parts paragraphs' }),
  ctaUrl: Type.Optional(Type.String({ maxLength: 2000, description: 'https (http to localhost outside production)' })),
  ctaTitle: Type.Optional(Type.String({ maxLength: 100 })),
});
export const MemberSmsBody = Type.Object({ text: Type.String({ minLength: 1, maxLength: 480 }) });
export const SmsOtpResponse = Type.Object({ id: Type.String(), code: Type.String({ pattern: '^[0-9]{6}$' }) });
