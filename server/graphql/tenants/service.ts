// The caller's workspace. Only ever looked up, and changed, by the tenant id of a verified access
// token (or, at signup, the one just created).
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { tenants } from '../../db/schema.ts';
import type { PaymentsRuntime } from '../../payments/service.ts';
import { paymentStatusOf } from '../payments/views.ts';
import { trialOf } from '../../../common/payments.ts';
import type { App } from '../../apps/lookup.ts';
import type { Tenant, TenantAnonymous, TenantInput } from '../generated/resolvers.ts';
import { checkLocale, checkLogo, checkName, checkUploadedLogo, InputProblems } from '../input.ts';
import { recordAudit } from '../../audit/service.ts';
import { emitTenantEvent } from '../../outbox/outbox.ts';
import { plainIssue } from '../../http/field-issues.ts';
import type { AttributeCatalog } from '../attributes/catalog.ts';
import { applyAttributeChanges, checkAttributeEdit, type AttributeChanges } from '../attributes/check.ts';

/** The flow whose steps show the workspace settings: the workspace attributes it collects are edited there. */
export const WORKSPACE_FLOW_ID = 'workspace';

type TenantRecord = typeof tenants.$inferSelect;

async function findTenant(db: Database, appId: string, tenantId: string): Promise<TenantRecord> {
  const [tenant] = await db
    .select()
    .from(tenants)
    .where(and(eq(tenants.id, tenantId), eq(tenants.appId, appId)))
    .limit(1);
  // The membership check that admitted the caller found this tenant a moment ago.
  if (!tenant) throw new Error(`Tenant ${tenantId} vanished during the request`);
  return tenant;
}

export async function getTenantSummary(db: Database, appId: string, tenantId: string): Promise<TenantAnonymous> {
  const tenant = await findTenant(db, appId, tenantId);
  return { id: tenant.id, name: tenant.name, locale: tenant.locale };
}

export async function getTenant(payments: PaymentsRuntime, db: Database, app: App, tenantId: string): Promise<Tenant> {
  return toTenant(payments, app, await findTenant(db, app.id, tenantId));
}

export function toTenant(payments: PaymentsRuntime, app: App, tenant: TenantRecord): Tenant {
  return {
    id: tenant.id,
    name: tenant.name,
    locale: tenant.locale,
    logo: tenant.logo,
    plan: tenant.plan,
    createdAt: tenant.createdAt.toISOString(),
    // Federation connections arrive with the federation issue; until then no workspace has one.
    federationConnection: null,
    mfa: tenant.mfa,
    onboarded: tenant.onboarded,
    trial: trialOf(tenant, payments.clock.now()).trial,
    paymentStatus: paymentStatusOf(payments, app, tenant),
    attributes: tenant.attributes,
  };
}

/**
 * The columns `input` changes; a field left out (or null, except logo) keeps its value. With
 * `logoUploads`, a logo must be one of the app's uploads under that address.
 */
function checkTenantInput(
  app: App,
  input: TenantInput,
  catalog: AttributeCatalog,
  logoUploads: string | undefined,
): { changes: Partial<TenantRecord>; attributes?: AttributeChanges } {
  const problems = new InputProblems();
  const changes: Partial<TenantRecord> = {};
  if (input.name != null) {
    changes.name = checkName(problems, 'name', input.name, true);
    // A workspace is onboarded once it has a name.
    changes.onboarded = true;
  }
  if (input.locale != null) changes.locale = checkLocale(problems, 'locale', input.locale);
  if (input.logo !== undefined) {
    changes.logo = logoUploads ? checkUploadedLogo(problems, 'logo', input.logo, logoUploads) : checkLogo(problems, 'logo', input.logo);
  }
  if (input.mfa != null) {
    if (app.settings.mfaEnabled) changes.mfa = input.mfa;
    else problems.add('mfa', plainIssue('twoFactorUnavailable'));
  }
  if (input.federationConnection != null) {
    problems.add('federationConnection', plainIssue('noFederationConnections'));
  }
  const attributes = input.attributes
    ? checkAttributeEdit(catalog, WORKSPACE_FLOW_ID, input.attributes, ['tenant'], problems).tenant
    : undefined;
  problems.throwIfAny();
  return { changes, attributes };
}

/** Who changes the workspace, for the audit trail: a member, or (ids null) an app's API key named in `detail`. */
export interface TenantActor {
  tenantUserId: string | null;
  userId: string | null;
  ip: string;
  detail?: Record<string, unknown>;
}

export async function updateTenant(
  payments: PaymentsRuntime,
  db: Database,
  app: App,
  tenantId: string,
  input: TenantInput,
  actor: TenantActor,
  catalog: AttributeCatalog,
  /** A member's logo is an upload under this address; an app's back end (its API key) may name any. */
  logoUploads?: string,
): Promise<Tenant> {
  const { changes, attributes } = checkTenantInput(app, input, catalog, logoUploads);
  if (Object.keys(changes).length > 0 || attributes) {
    await db.transaction(async (tx) => {
      if (attributes) {
        // Read and written in one transaction, under the row's lock: two edits never lose each other's values.
        const [row] = await tx
          .select({ attributes: tenants.attributes })
          .from(tenants)
          .where(and(eq(tenants.id, tenantId), eq(tenants.appId, app.id)))
          .for('update');
        changes.attributes = applyAttributeChanges(row?.attributes ?? {}, attributes);
      }
      await tx
        .update(tenants)
        .set(changes)
        .where(and(eq(tenants.id, tenantId), eq(tenants.appId, app.id)));
      await recordAudit(tx, {
        type: 'tenant.updated',
        appId: app.id,
        userId: actor.userId,
        tenantUserId: actor.tenantUserId,
        ip: actor.ip,
        detail: { ...actor.detail, tenantId, fields: Object.keys(changes) },
      });
      await emitTenantEvent(tx, app.id, 'TENANT_UPDATED', tenantId);
    });
  }
  return getTenant(payments, db, app, tenantId);
}
