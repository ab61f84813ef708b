// What a webhook event's `data` carries: the Tenant and TenantUser models of the original's account
// API (ORIGINAL-CONTRACT.md section 4, TenantResponse and TenantUser), read inside the transaction
// that changed them, so the event describes the change it is committed with.
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { tenants, tenantUsers, users } from '../../db/schema.ts';
import { trialOf } from '../../../common/payments.ts';

type TenantRecord = typeof tenants.$inferSelect;

export interface TenantModel {
  id: string;
  plan: string | null;
  mfa: boolean;
  paymentStatus: { paymentsEnabled: boolean; shouldSetupPayments: boolean; shouldSelectPlan: boolean; provider: string };
  trial: boolean;
  locale: string;
  name: string;
  logo: string | null;
  metadata: Record<string, unknown>;
  onboarded: boolean;
  federationConnection: null;
  createdAt: string;
}

export interface TenantUserModel {
  id: string;
  role: string;
  email: string;
  username: string;
  firstName: string | null;
  lastName: string | null;
  fullName: string | null;
  onboarded: boolean;
  consentsToPrivacyPolicy: boolean;
  enabled: boolean;
  teams: string[];
  createdAt: string;
  lastSeen: string | null;
  tenant: TenantModel;
  customParams: Record<string, string>;
}

function tenantModelOf(tenant: TenantRecord): TenantModel {
  return {
    id: tenant.id,
    plan: tenant.plan,
    mfa: tenant.mfa,
    paymentStatus: {
      paymentsEnabled: tenant.paymentsEnabled,
      shouldSetupPayments: tenant.shouldSetupPayments,
      shouldSelectPlan: tenant.shouldSelectPlan,
      provider: tenant.paymentProvider,
    },
    trial: trialOf(tenant, new Date()).trial,
    locale: tenant.locale,
    name: tenant.name,
    logo: tenant.logo,
    // The values flows collected for the workspace play the original's free-form metadata.
    metadata: tenant.attributes,
    onboarded: tenant.onboarded,
    federationConnection: null,
    createdAt: tenant.createdAt.toISOString(),
  };
}

export async function tenantModel(db: Database, tenantId: string): Promise<TenantModel | undefined> {
  const [tenant] = await db.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return tenant && tenantModelOf(tenant);
}

export async function tenantUserModel(db: Database, tenantUserId: string): Promise<TenantUserModel | undefined> {
  const [row] = await db
    .select({ member: tenantUsers, user: users, tenant: tenants })
    .from(tenantUsers)
    .innerJoin(users, eq(users.id, tenantUsers.userId))
    .innerJoin(tenants, and(eq(tenants.id, tenantUsers.tenantId), eq(tenants.appId, users.appId)))
    .where(eq(tenantUsers.id, tenantUserId))
    .limit(1);
  if (!row) return undefined;
  const { member, user, tenant } = row;
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
    teams: [],
    createdAt: member.createdAt.toISOString(),
    lastSeen: member.lastSeen?.toISOString() ?? null,
    tenant: tenantModelOf(tenant),
    customParams: member.customParams,
  };
}
