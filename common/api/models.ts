// A workspace and a member as an app's back end reads them, in the original product's shapes
// (docs/ORIGINAL-CONTRACT.md section 4, TenantResponse and TenantUser): the management API answers
// with them (server/management/schemas.ts) and webhook events carry them (server/outbox/models.ts).
import { Type, type Static, type TSchema } from 'typebox';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const DateTime = Type.String({ format: 'date-time' });

export const PaymentStatus = Type.Object({
  paymentsEnabled: Type.Boolean(),
  shouldSetupPayments: Type.Boolean(),
  shouldSelectPlan: Type.Boolean(),
  provider: Type.String(),
});

export const TenantModel = Type.Object({
  id: Type.String(),
  name: Type.String(),
  plan: Nullable(Type.String()),
  mfa: Type.Boolean(),
  paymentStatus: PaymentStatus,
  trial: Type.Boolean(),
  locale: Type.String(),
  logo: Nullable(Type.String()),
  /** Foyer keeps no free-form metadata on a workspace (the management API refuses a non-empty one). */
  metadata: Type.Record(Type.String(), Type.String()),
  /** What flows collected for the workspace (steps with `collect` naming `tenant`, flows/README.md). */
  attributes: Type.Record(Type.String(), Type.Unknown()),
  onboarded: Type.Boolean(),
  federationConnection: Nullable(Type.String()),
  createdAt: DateTime,
});
export type TenantModel = Static<typeof TenantModel>;

export const TenantUserModel = Type.Object({
  id: Type.String(),
  role: Type.String(),
  email: Type.String(),
  username: Type.String(),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  fullName: Nullable(Type.String()),
  onboarded: Type.Boolean(),
  consentsToPrivacyPolicy: Type.Boolean(),
  enabled: Type.Boolean(),
  /** Invited and not yet accepted from the mailed (or handed-over) link. */
  invitationPending: Type.Boolean(),
  teams: Type.Array(Type.String()),
  createdAt: DateTime,
  lastSeen: Nullable(DateTime),
  tenant: TenantModel,
  customParams: Type.Record(Type.String(), Type.String()),
  /** What flows collected for this membership (steps with `collect` naming `membership`). */
  attributes: Type.Record(Type.String(), Type.Unknown()),
});
export type TenantUserModel = Static<typeof TenantUserModel>;
