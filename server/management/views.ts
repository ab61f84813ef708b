// Foyer's records in the original product's shapes (server/management/schemas.ts).
import type { App } from '../apps/lookup.ts';
import { socialProviders, type SocialProvider } from '../../common/app-config.ts';
import { PRIVILEGES, ROLES, privilegesOf } from '../../common/roles.ts';
import type { PlanGraphql, Tenant, TenantPaymentDetailsGraphql, User } from '../graphql/generated/resolvers.ts';
import type { PricingPlan } from '../../common/payments.ts';
import { planGraphql } from '../graphql/payments/views.ts';
import type { TenantModel, TenantUserModel } from '../../common/api/models.ts';

export function tenantView(tenant: Tenant): TenantModel {
  return {
    id: tenant.id,
    name: tenant.name ?? '',
    plan: tenant.plan ?? null,
    mfa: tenant.mfa ?? false,
    paymentStatus: {
      paymentsEnabled: tenant.paymentStatus?.paymentsEnabled ?? false,
      shouldSetupPayments: tenant.paymentStatus?.shouldSetupPayments ?? false,
      shouldSelectPlan: tenant.paymentStatus?.shouldSelectPlan ?? false,
      provider: tenant.paymentStatus?.provider ?? 'STRIPE',
    },
    trial: tenant.trial ?? false,
    locale: tenant.locale ?? 'en',
    logo: tenant.logo ?? null,
    metadata: {},
    attributes: tenant.attributes ?? {},
    onboarded: tenant.onboarded ?? false,
    federationConnection: tenant.federationConnection ?? null,
    createdAt: tenant.createdAt ?? new Date(0).toISOString(),
  };
}

export function tenantUserView(user: User, tenant: TenantModel): TenantUserModel {
  return {
    id: user.id,
    role: user.role ?? '',
    email: user.email ?? '',
    username: user.username ?? user.email ?? '',
    firstName: user.firstName ?? null,
    lastName: user.lastName ?? null,
    fullName: user.fullName ?? null,
    onboarded: user.onboarded ?? false,
    consentsToPrivacyPolicy: user.consentsToPrivacyPolicy ?? false,
    enabled: user.enabled ?? false,
    invitationPending: user.invitationPending ?? false,
    teams: (user.teams ?? []).filter((team): team is string => typeof team === 'string'),
    createdAt: user.createdAt ?? new Date(0).toISOString(),
    lastSeen: user.lastSeen ?? null,
    tenant,
    customParams: Object.fromEntries((user.customParams ?? []).map((param) => [param.label, param.value ?? ''])),
    attributes: user.attributes ?? {},
  };
}

const credentialsOf = (app: App, provider: SocialProvider) => Boolean(app.settings.socialProviders?.[provider]?.clientSecretSealed);

export function appView(app: App) {
  const settings = app.settings;
  return {
    id: app.id,
    name: app.name,
    uiUrl: settings.uiUrl ?? null,
    logo: settings.logo ?? null,
    websiteUrl: settings.websiteUrl ?? null,
    privacyPolicyUrl: settings.privacyPolicyUrl ?? null,
    termsOfServiceUrl: settings.termsOfServiceUrl ?? null,
    passkeysEnabled: settings.passkeysEnabled ?? false,
    magicLinkEnabled: settings.magicLinkEnabled ?? false,
    mfaEnabled: settings.mfaEnabled ?? false,
    stripeEnabled: Boolean(settings.payments?.stripe?.secretKeySealed),
    googleSsoEnabled: settings.googleSsoEnabled ?? false,
    linkedinSsoEnabled: settings.linkedinSsoEnabled ?? false,
    appleSsoEnabled: settings.appleSsoEnabled ?? false,
    githubSsoEnabled: settings.githubSsoEnabled ?? false,
    facebookSsoEnabled: settings.facebookSsoEnabled ?? false,
    azureAdSsoEnabled: settings.azureAdSsoEnabled ?? false,
    onboardingFlow: settings.onboardingFlow ?? null,
    tenantSelfSignup: settings.tenantSelfSignup ?? false,
    redirectUris: app.redirectUris,
    defaultCallbackUri: app.redirectUris[0] ?? null,
    accessTokenTTL: app.accessTokenTtl,
    refreshTokenTTL: app.refreshTokenTtl,
  };
}

export function credentialsStateView(app: App) {
  const state = Object.fromEntries(socialProviders.map((provider) => [`${provider}CredentialsAdded`, credentialsOf(app, provider)]));
  return {
    stripeCredentialsAdded: Boolean(app.settings.payments?.stripe?.secretKeySealed),
    googleCredentialsAdded: false,
    linkedinCredentialsAdded: false,
    appleCredentialsAdded: false,
    githubCredentialsAdded: false,
    facebookCredentialsAdded: false,
    azureAdCredentialsAdded: false,
    ...state,
    // Foyer has no Azure Marketplace credentials of its own.
    azureMarketplaceCredentialsAdded: false,
  };
}

/** The roles of common/roles.ts; their keys double as ids, as they are the same in every app. */
export function rolesView(app: App) {
  const defaultRole = app.settings.defaultRole ?? 'VIEWER';
  return ROLES.map((role) => ({
    id: role,
    key: role,
    name: role.charAt(0) + role.slice(1).toLowerCase(),
    description: null,
    isDefault: role === defaultRole,
    privileges: privilegesOf(role).map((key) => ({ id: key, key, description: null })),
  }));
}

export function privilegesView() {
  return PRIVILEGES.map((key) => ({ id: key, key, description: null }));
}

const planOf = (plan: PlanGraphql) => ({
  id: plan.id,
  key: plan.key,
  name: plan.name,
  description: plan.description ?? null,
  trial: plan.trial,
  trialDays: plan.trialDays,
  prices: plan.prices.map((price) => ({ amount: price.amount, currency: price.currency, recurrenceInterval: price.recurrenceInterval })),
});

export const planView = (plan: PricingPlan) => planOf(planGraphql(plan));

export function paymentDetailsView(details: TenantPaymentDetailsGraphql) {
  return {
    status: details.status,
    details: {
      plan: details.details.plan ? planOf(details.details.plan) : null,
      price: details.details.price ?? null,
      trial: details.details.trial,
      trialDaysLeft: details.details.trialDaysLeft,
    },
  };
}
