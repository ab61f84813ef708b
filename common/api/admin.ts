// The admin API's request and answer payloads (/admin on the API host, server/admin/plugin.ts and
// server/webhooks/routes.ts), declared once: the server's route schemas (and so the OpenAPI
// document) and the configurator's client (configurator/api/) both use them.
import { Type, type Static, type TSchema } from 'typebox';
import type { AppConfig } from '../app-config.ts';
import { APP_LOG_EVENTS, APP_LOG_MAX_PAGE_SIZE } from '../app-log.ts';
import { WEBHOOK_EVENT_TYPES } from '../webhooks.ts';
import { MAX_API_KEY_NAME_LENGTH, MAX_PUBLISH_NOTE_LENGTH } from './limits.ts';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const DateTime = Type.String({ format: 'date-time' });

/**
 * An app's settings document. Its schema is schema/app-config.schema.json (the server checks every
 * document written against it); here it passes through whole.
 */
export const AppConfigSchema = Type.Unsafe<AppConfig>(
  Type.Object({}, { additionalProperties: true, description: 'The app settings document of schema/app-config.schema.json' }),
);

export const AppParams = Type.Object({ appId: Type.String() });
export const VersionParams = Type.Object({ appId: Type.String(), version: Type.String({ description: 'A version number' }) });
export const ApiKeyParams = Type.Object({ appId: Type.String(), keyId: Type.String({ maxLength: 100 }) });
export const WebhookParams = Type.Object({ appId: Type.String(), endpointId: Type.String() });
export const WebhookDeliveryParams = Type.Object({ appId: Type.String(), endpointId: Type.String(), deliveryId: Type.String() });

export const AppSummarySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  publishedVersion: Type.Integer({ description: '0 = never published through the admin API' }),
  hasDraft: Type.Boolean(),
  createdAt: DateTime,
});
export type AppSummary = Static<typeof AppSummarySchema>;
export const AppList = Type.Object({ apps: Type.Array(AppSummarySchema) });

export const NewAppBody = Type.Object({
  name: Type.String(),
  redirectUris: Type.Optional(Type.Array(Type.String())),
});
export type NewAppBody = Static<typeof NewAppBody>;
export const CreatedAppSchema = Type.Object({
  app: AppSummarySchema,
  apiKey: Type.String({ description: 'Shown this once: the server keeps only its hash' }),
});
export type CreatedApp = Static<typeof CreatedAppSchema>;

export const DraftSchema = Type.Object({
  config: AppConfigSchema,
  baseVersion: Type.Integer(),
  updatedAt: DateTime,
  updatedBy: Type.String(),
});
export type Draft = Static<typeof DraftSchema>;
export const DraftAnswer = Type.Object({ draft: DraftSchema });
export const DraftBody = Type.Object({ config: AppConfigSchema });

export const AppDetailSchema = Type.Object({
  app: AppSummarySchema,
  live: AppConfigSchema,
  draft: Nullable(DraftSchema),
  apiKeyCreatedAt: Nullable(DateTime),
  clientSecretCreatedAt: Nullable(DateTime),
});
export type AppDetail = Static<typeof AppDetailSchema>;

/** One difference between the draft and the live version; never carries a secret's value. */
export const ChangeSchema = Type.Union([
  Type.Object({ kind: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]), path: Type.String() }),
  Type.Object({
    kind: Type.Literal('changed'),
    path: Type.String(),
    from: Type.Optional(Type.Unknown()),
    to: Type.Optional(Type.Unknown()),
  }),
  Type.Object({ kind: Type.Literal('translations'), language: Type.String(), count: Type.Integer() }),
  Type.Object({
    kind: Type.Literal('list'),
    path: Type.Enum(['customSignupFields', 'redirectUris', 'postLogoutRedirectUris', 'payments.plans', 'payments.taxes']),
    added: Type.Integer(),
    removed: Type.Integer(),
    changed: Type.Integer(),
  }),
  Type.Object({ kind: Type.Literal('secret'), path: Type.String() }),
]);
export type Change = Static<typeof ChangeSchema>;
export const ChangeList = Type.Object({
  changes: Type.Array(ChangeSchema),
  revision: Type.String({ description: 'Names this state of draft and live version; publish can insist on it' }),
});

export const VersionSummarySchema = Type.Object({
  version: Type.Integer(),
  author: Type.String(),
  note: Nullable(Type.String()),
  createdAt: DateTime,
  live: Type.Boolean(),
});
export type VersionSummary = Static<typeof VersionSummarySchema>;
export const VersionList = Type.Object({ versions: Type.Array(VersionSummarySchema) });
export const VersionAnswer = Type.Object({ version: VersionSummarySchema });
export const VersionDetail = Type.Object({ version: VersionSummarySchema, config: AppConfigSchema });
export const PublishBody = Type.Object({
  note: Type.Optional(Nullable(Type.String({ maxLength: MAX_PUBLISH_NOTE_LENGTH }))),
  revision: Type.Optional(Nullable(Type.String({ description: 'What the reviewed changes answered' }))),
});

export const RegeneratedApiKey = Type.Object({ apiKey: Type.String({ description: 'Shown this once; it replaces every key of the app' }) });
export const ClientSecretAnswer = Type.Object({ clientSecret: Type.String({ description: 'Shown this once' }) });
export const LogoAnswer = Type.Object({ url: Type.String({ description: "The uploaded logo's address, for the draft's logo field" }) });
export const LogoBody = Type.String({
  contentEncoding: 'binary',
  description: 'The image bytes (PNG, JPEG, GIF or WebP, at most 256 KiB)',
});

/** One of an app's API keys as the admin API lists it (never the key itself). */
export const ApiKeySummarySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: DateTime,
  lastUsedAt: Nullable(DateTime),
});
export type ApiKeySummary = Static<typeof ApiKeySummarySchema>;
export const ApiKeyList = Type.Object({ apiKeys: Type.Array(ApiKeySummarySchema) });
export const NewApiKeyBody = Type.Object({ name: Type.String({ maxLength: MAX_API_KEY_NAME_LENGTH * 4 }) });
export type NewApiKeyBody = Static<typeof NewApiKeyBody>;
export const NewApiKey = Type.Object({
  apiKey: ApiKeySummarySchema,
  key: Type.String({ description: 'Shown this once; only its SHA-256 is kept' }),
});

export const NewWorkspaceBody = Type.Object({
  name: Type.String(),
  ownerEmail: Type.Optional(
    Nullable(Type.String({ description: "The owner's e-mail; the caller's own when unset (required with an API key)" })),
  ),
});
export type NewWorkspaceBody = Static<typeof NewWorkspaceBody>;
export const WorkspaceSchema = Type.Object({ id: Type.String(), name: Type.String() });
export type Workspace = Static<typeof WorkspaceSchema>;
export const WorkspaceAnswer = Type.Object({ workspace: WorkspaceSchema });

export const AuditLogQuery = Type.Object(
  {
    type: Type.Optional(Type.Enum([...APP_LOG_EVENTS])),
    person: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: APP_LOG_MAX_PAGE_SIZE })),
  },
  { additionalProperties: false },
);
export type AuditLogQuery = Static<typeof AuditLogQuery>;

/** One event of an app's audit log. */
export const AuditLogEntrySchema = Type.Object({
  type: Type.String(),
  at: DateTime,
  ip: Nullable(Type.String()),
  person: Nullable(
    Type.String({ description: 'Who the event is about or who acted: their e-mail, or the address a failed attempt named' }),
  ),
  viaApiKey: Type.Boolean({ description: "An admin API call made with the app's API key rather than by an owner" }),
  browser: Nullable(Type.String()),
  os: Nullable(Type.String()),
});
export type AuditLogEntry = Static<typeof AuditLogEntrySchema>;
export const AuditLogPage = Type.Object({ total: Type.Integer(), entries: Type.Array(AuditLogEntrySchema) });

const WebhookEventTypeSchema = Type.Enum([...WEBHOOK_EVENT_TYPES]);

/** One of an app's webhook endpoints; its secret is fetched on request. */
export const WebhookEndpointSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  description: Type.String(),
  eventTypes: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  createdAt: DateTime,
});
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;
export const WebhookEndpointBody = Type.Object({
  url: Type.String({ description: 'An http or https URL of a public address' }),
  description: Type.Optional(Type.String({ maxLength: 200 })),
  eventTypes: Type.Array(WebhookEventTypeSchema, { minItems: 1 }),
  enabled: Type.Optional(Type.Boolean()),
});
export type WebhookEndpointInput = Required<Static<typeof WebhookEndpointBody>>;
export const WebhookEndpointChange = Type.Partial(WebhookEndpointBody);
export const WebhookEndpointList = Type.Object({
  endpoints: Type.Array(WebhookEndpointSchema),
  eventTypes: Type.Array(WebhookEventTypeSchema),
});
export const WebhookEndpointAnswer = Type.Object({ endpoint: WebhookEndpointSchema });
export const NewWebhookEndpoint = Type.Object({
  endpoint: WebhookEndpointSchema,
  secret: Type.String({ description: 'The whsec_… signing secret' }),
});
export const WebhookSecret = Type.Object({ secret: Type.String({ description: 'The whsec_… signing secret' }) });

/** Where a delivery stands: waiting for its next attempt, being posted, done, or given up after the retry window. */
export const WebhookDeliveryStatusSchema = Type.Union([
  Type.Literal('pending'),
  Type.Literal('delivering'),
  Type.Literal('succeeded'),
  Type.Literal('failed'),
]);
export type WebhookDeliveryStatus = Static<typeof WebhookDeliveryStatusSchema>;

/** One delivery of an event to an endpoint, as the delivery log shows it. */
export const WebhookDeliverySchema = Type.Object({
  id: Type.String(),
  eventId: Type.String(),
  eventType: Type.String(),
  status: WebhookDeliveryStatusSchema,
  attempts: Type.Integer(),
  responseCode: Nullable(Type.Integer()),
  durationMs: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  lastAttemptAt: Nullable(DateTime),
  nextAttemptAt: Nullable(DateTime),
  createdAt: DateTime,
});
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;
export const WebhookDeliveryList = Type.Object({ deliveries: Type.Array(WebhookDeliverySchema) });
export const WebhookDeliveryAnswer = Type.Object({ delivery: WebhookDeliverySchema });

const OptionalText = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })));

/** A workspace's enterprise connection as its owners send it (server/auth/enterprise/connections.ts checks it). */
export const EnterpriseConnectionBody = Type.Object(
  {
    kind: Type.Optional(
      Type.Union([Type.Literal('oidc'), Type.Literal('saml')], { description: 'Set on creation; a connection keeps its kind' }),
    ),
    name: Type.String({ maxLength: 200 }),
    defaultRole: Type.String({ maxLength: 50, description: 'ADMIN, MANAGER or VIEWER: the role of people who join just in time' }),
    domains: Type.Array(Type.String({ maxLength: 253 }), { maxItems: 50 }),
    oidcIssuer: OptionalText(2048),
    oidcClientId: OptionalText(500),
    oidcClientSecret: OptionalText(2000),
    samlMetadataXml: OptionalText(200_000),
    samlIdpEntityId: OptionalText(2048),
    samlSsoUrl: OptionalText(2048),
    samlCertificate: OptionalText(20_000),
  },
  { additionalProperties: false },
);

/** A connection as its owners read it: never the client secret, only whether there is one. */
export const EnterpriseConnectionSchema = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('oidc'), Type.Literal('saml')]),
  name: Type.String(),
  defaultRole: Type.String(),
  domains: Type.Array(
    Type.Object({
      domain: Type.String(),
      verified: Type.Boolean(),
      verificationRecord: Type.String({ description: 'The TXT record that proves the domain' }),
    }),
  ),
  oidcIssuer: Nullable(Type.String()),
  oidcClientId: Nullable(Type.String()),
  hasClientSecret: Type.Boolean(),
  redirectUri: Nullable(Type.String({ description: 'OIDC: the redirect URI to register at the provider' })),
  samlIdpEntityId: Nullable(Type.String()),
  samlSsoUrl: Nullable(Type.String()),
  samlCertificate: Nullable(Type.String()),
  spEntityId: Nullable(Type.String({ description: 'SAML: the entity id to register at the IdP' })),
  acsUrl: Nullable(Type.String({ description: 'SAML: the ACS URL (HTTP-POST) to register at the IdP' })),
});
export const EnterpriseConnectionList = Type.Object({ connections: Type.Array(EnterpriseConnectionSchema) });
export const EnterpriseConnectionAnswer = Type.Object({ connection: EnterpriseConnectionSchema });
export const DomainMailBody = Type.Object(
  {
    address: Type.String({
      minLength: 1,
      maxLength: 254,
      description: "One of the domain's role mailboxes: postmaster@, hostmaster@, webmaster@, admin@ or administrator@ the domain",
    }),
  },
  { additionalProperties: false },
);
export const DomainMailSent = Type.Object({ sentTo: Type.String({ description: 'The address the link went to' }) });
