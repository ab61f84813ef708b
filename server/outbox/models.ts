// What a webhook event's `data` carries: the workspace and member models the management API answers
// with (common/api/models.ts), built from the rows read inside the transaction that changed them, so
// the event describes the change it is committed with.
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import type { AppSettings } from '../db/app-settings.ts';
import { apps, tenants, tenantUsers, users } from '../db/schema.ts';
import { mustSelectPlan, trialOf } from '../../common/payments.ts';
import type { TenantModel, TenantUserModel } from '../../common/api/models.ts';

type TenantRecord = typeof tenants.$inferSelect;

function tenantModelOf(tenant: TenantRecord, settings: AppSettings): TenantModel {
  return {
    id: tenant.id,
    plan: tenant.plan,
    mfa: tenant.mfa,
    paymentStatus: {
      paymentsEnabled: tenant.paymentsEnabled,
      shouldSetupPayments: tenant.shouldSetupPayments,
      shouldSelectPlan: mustSelectPlan(tenant, settings.payments),
      // The provider the workspace last paid through: which one the app uses now depends on the
      // server's payments runtime, which the capabilities that emit events do not all hold.
      provider: tenant.paymentProvider,
    },
    trial: trialOf(tenant, new Date()).trial,
    locale: tenant.locale,
    name: tenant.name,
    logo: tenant.logo,
    metadata: {},
    attributes: tenant.attributes,
    onboarded: tenant.onboarded,
    federationConnection: null,
    createdAt: tenant.createdAt.toISOString(),
  };
}

export async function tenantModel(db: Database, tenantId: string): Promise<TenantModel | undefined> {
  const [row] = await db
    .select({ tenant: tenants, settings: apps.settings })
    .from(tenants)
    .innerJoin(apps, eq(apps.id, tenants.appId))
    .where(eq(tenants.id, tenantId))
    .limit(1);
  return row && tenantModelOf(row.tenant, row.settings);
}

export async function tenantUserModel(db: Database, tenantUserId: string): Promise<TenantUserModel | undefined> {
  const [row] = await db
    .select({ member: tenantUsers, user: users, tenant: tenants, settings: apps.settings })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .innerJoin(tenants, and(eq(tenants.id, tenantUsers.tenantId), eq(tenants.appId, users.appId)))
    .innerJoin(apps, eq(apps.id, tenants.appId))
    .where(eq(tenantUsers.id, tenantUserId))
    .limit(1);
  if (!row) return undefined;
  const { member, user, tenant, settings } = row;
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ') || null;
  return {
    id: member.id,
    role: member.role,
    email: user.email,
    username: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    fullName,
    onboarded: member.onboarded,
    consentsToPrivacyPolicy: user.consentsToPrivacyPolicy,
    // A pending invitation cannot be used yet, as the membership checks treat it (server/auth/memberships.ts).
    enabled: member.enabled && !member.invitationPending,
    invitationPending: member.invitationPending,
    teams: [],
    createdAt: member.createdAt.toISOString(),
    lastSeen: member.lastSeen?.toISOString() ?? null,
    tenant: tenantModelOf(tenant, settings),
    customParams: member.customParams,
    attributes: member.attributes,
  };
}
