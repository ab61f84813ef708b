// The management API's writes to the app's settings: PUT /app, its custom signup fields and provider
// credentials, and the plans and taxes. Each maps the original product's shape (ORIGINAL-CONTRACT.md
// section 4) onto the app's config document and publishes it through the admin service
// (publishChange in server/admin/service.ts), so the document's checks, secret sealing, versions and
// audit are the configurator's own. Roles are Foyer's fixed table (common/roles.ts): writes are refused.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { and, count, eq, or } from 'drizzle-orm';
import type { FoyerContext } from '../context.ts';
import type { App } from '../apps/lookup.ts';
import { tenants } from '../db/schema.ts';
import { publishChange } from '../admin/service.ts';
import { AdminError, type ProblemDetail } from '../admin/errors.ts';
import type { WriteOrigin } from '../admin/caller.ts';
import { type AppConfig, type CustomSignupField, type SocialProvider } from '../../common/app-config.ts';
import type { PricingPlan, Tax } from '../../common/payments.ts';
import { findPlan, taxesOf, taxId } from '../payments/catalog.ts';
import { taxGraphql } from '../graphql/payments/views.ts';
import { keyedIssue, type FieldIssue } from '../http/field-issues.ts';
import { customParamsConfig } from '../graphql/custom-params/service.ts';
import { badInput, ManagementError } from './errors.ts';
import {
  AppModel,
  CatalogIdParams,
  CredentialsBody,
  CredentialsState,
  CustomParamsConfig,
  CustomParamsConfigBody,
  ErrorBody,
  NoContent,
  Plan,
  PlanBody,
  TaxBody,
  TaxView,
  UpdateAppBody,
} from './schemas.ts';
import { appView, credentialsStateView, planView } from './views.ts';

export interface SettingsRouteContext {
  /** The app of the request's API key. */
  appOf(request: FastifyRequest): App;
  originOf(request: FastifyRequest): WriteOrigin;
  tags: string[];
  security: Record<string, string[]>[];
}

const refusals = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** AppModel fields and the config document's name for each (most are the same). */
const APP_SETTINGS = {
  name: 'name',
  uiUrl: 'uiUrl',
  logo: 'logo',
  websiteUrl: 'websiteUrl',
  privacyPolicyUrl: 'privacyPolicyUrl',
  termsOfServiceUrl: 'termsOfServiceUrl',
  passkeysEnabled: 'passkeysEnabled',
  magicLinkEnabled: 'magicLinkEnabled',
  mfaEnabled: 'mfaEnabled',
  googleSsoEnabled: 'googleSsoEnabled',
  linkedinSsoEnabled: 'linkedinSsoEnabled',
  appleSsoEnabled: 'appleSsoEnabled',
  githubSsoEnabled: 'githubSsoEnabled',
  facebookSsoEnabled: 'facebookSsoEnabled',
  azureAdSsoEnabled: 'azureAdSsoEnabled',
  onboardingFlow: 'onboardingFlow',
  tenantSelfSignup: 'tenantSelfSignup',
  redirectUris: 'redirectUris',
  accessTokenTTL: 'accessTokenTtl',
  refreshTokenTTL: 'refreshTokenTtl',
} as const satisfies Record<string, keyof AppConfig>;

/** Fields GET /app answers that are Foyer's to work out: a round trip may send them unchanged. */
const DERIVED_APP_FIELDS = ['id', 'stripeEnabled'] as const;

/** Original fields Foyer has no setting for, and why. */
const UNSUPPORTED: Record<string, FieldIssue> = {
  emailSenderName: keyedIssue('noAppMailSender', "Foyer sends every app's mail from the server's sender address"),
  emailSenderEmail: keyedIssue('noAppMailSender', "Foyer sends every app's mail from the server's sender address"),
  microsoftAzureADTenantId: keyedIssue(
    'azureAdCommon',
    "Foyer signs in with Microsoft through its multi-tenant endpoints (common, organizations or consumers, chosen in the configurator), not one tenant's",
  ),
  appleClientSecret: keyedIssue(
    'applePrivateKey',
    "Send applePrivateKey (the .p8 key) with appleTeamId and appleKeyId: Foyer signs Apple's client secret for every token request",
  ),
  microsoftAzureMarketplaceClientId: keyedIssue('noAzureMarketplace', 'Foyer has no Azure Marketplace integration'),
  microsoftAzureMarketplaceClientSecret: keyedIssue('noAzureMarketplace', 'Foyer has no Azure Marketplace integration'),
  microsoftAzureMarketplaceTenantId: keyedIssue('noAzureMarketplace', 'Foyer has no Azure Marketplace integration'),
};

const unknownField = keyedIssue('unknownSetting', 'This is not a setting Foyer has');

/** The body's fields that are neither `known` nor derived and unchanged: each named with its reason. */
function refusedFields(body: Record<string, unknown>, known: readonly string[], derived: Record<string, unknown> = {}) {
  const refused: Record<string, FieldIssue> = {};
  for (const [field, value] of Object.entries(body)) {
    if (known.includes(field) || value === undefined) continue;
    if (field in derived) {
      if (derived[field] !== value) refused[field] = keyedIssue('readOnly', 'Foyer works this value out; it cannot be set');
      continue;
    }
    refused[field] = UNSUPPORTED[field] ?? unknownField;
  }
  if (Object.keys(refused).length > 0) throw badInput(refused);
}

/** The document's problems named by the request's fields: `rename` maps a document pointer to the body's (or keeps it). */
async function publishing<T>(rename: (path: string) => string, publish: () => Promise<T>): Promise<T> {
  try {
    return await publish();
  } catch (error) {
    if (!(error instanceof AdminError) || !error.details) throw error;
    const details: ProblemDetail[] = error.details.map((detail) => ({ ...detail, path: rename(detail.path) }));
    throw new AdminError(error.statusCode, error.code, error.message, details);
  }
}

const renamedPrefix = (from: string, to: string) => (path: string) => (path.startsWith(from) ? `${to}${path.slice(from.length)}` : path);

/** The social credentials in the original's flat field names. */
const PROVIDER_FIELDS: [SocialProvider, string, string][] = [
  ['google', 'googleClientId', 'googleClientSecret'],
  ['linkedin', 'linkedinClientId', 'linkedinClientSecret'],
  ['github', 'githubClientId', 'githubClientSecret'],
  ['facebook', 'facebookAppId', 'facebookAppSecret'],
  ['azureAd', 'microsoftAzureADClientId', 'microsoftAzureADClientSecret'],
  // Apple's secret is the .p8 key Foyer signs each client secret with (server/auth/federation/apple.ts).
  ['apple', 'appleClientId', 'applePrivateKey'],
];

const FOYER_FIELD_TYPES: readonly string[] = ['email', 'phone', 'number', 'integer', 'text', 'regex', 'boolean', 'select'];

function planOf(body: PlanBody): PricingPlan {
  const trialDays = body.trial === false ? 0 : (body.trialDays ?? 0);
  return {
    key: body.key.trim(),
    name: body.name.trim(),
    ...(body.description !== undefined ? { description: body.description } : {}),
    trialDays,
    prices: body.prices.map((price) => ({
      amount: price.amount,
      currency: price.currency.trim().toUpperCase(),
      recurrenceInterval: price.recurrenceInterval.trim().toLowerCase() as PricingPlan['prices'][number]['recurrenceInterval'],
    })),
  };
}

const taxOf = (body: TaxBody): Tax => ({
  countryCode: body.countryCode.trim().toUpperCase(),
  name: body.name.trim(),
  percentage: body.percentage,
});

const unknownPlan = () => new ManagementError(404, 'NOT_FOUND', 'This app has no such plan');
const unknownTax = () => new ManagementError(404, 'NOT_FOUND', 'This app has no such tax');

export function registerSettingsRoutes(parent: FastifyInstance, context: FoyerContext, routes: SettingsRouteContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = context;
  const { appOf, originOf, tags, security } = routes;
  const change = (request: FastifyRequest, edit: (live: AppConfig) => unknown, note: string) =>
    publishChange(context, originOf(request), appOf(request), edit, note);

  app.put(
    '/app',
    {
      schema: {
        tags,
        security,
        summary: "Change the app's settings (published at once as a new version)",
        body: UpdateAppBody,
        response: { 200: AppModel, ...refusals },
      },
    },
    async (request) => {
      const body = request.body as Record<string, unknown>;
      const current = appView(appOf(request));
      refusedFields(
        body,
        [...Object.keys(APP_SETTINGS), 'defaultCallbackUri'],
        Object.fromEntries(DERIVED_APP_FIELDS.map((field) => [field, current[field]])),
      );
      const rename = (path: string) =>
        Object.entries(APP_SETTINGS).reduce((renamed, [field, setting]) => renamedPrefix(`/${setting}`, `/${field}`)(renamed), path);
      const { app: updated } = await publishing(rename, () =>
        change(
          request,
          (live) => {
            const next: Record<string, unknown> = { ...live };
            for (const [field, setting] of Object.entries(APP_SETTINGS)) {
              if (body[field] !== undefined) next[setting] = body[field];
            }
            const fallback = next.redirectUris as string[];
            if (typeof body.defaultCallbackUri === 'string') {
              // Foyer's default callback is the first redirect URI (server/admin/config-document.ts).
              next.redirectUris = [body.defaultCallbackUri, ...fallback.filter((uri) => uri !== body.defaultCallbackUri)];
            }
            return next;
          },
          'Changed through the management API',
        ),
      );
      return appView(updated);
    },
  );

  app.put(
    '/app/credentials',
    {
      schema: {
        tags,
        security,
        summary: "Store the app's provider credentials (secrets sealed, never answered)",
        body: CredentialsBody,
        response: { 200: CredentialsState, ...refusals },
      },
    },
    async (request) => {
      const body = request.body as Record<string, unknown>;
      refusedFields(body, Object.keys(CredentialsBody.properties));
      const sent = (field: string) => body[field] as string | undefined;
      const rename = (path: string) => {
        for (const [provider, idField, secretField] of PROVIDER_FIELDS) {
          if (path === `/socialProviders/${provider}/clientId`) return `/${idField}`;
          if (path === `/socialProviders/${provider}/clientSecret`) return `/${secretField}`;
        }
        return (
          {
            '/socialProviders/apple/teamId': '/appleTeamId',
            '/socialProviders/apple/keyId': '/appleKeyId',
            '/payments/stripe/secretKey': '/stripeSecretKey',
            '/payments/stripe/publishableKey': '/stripePublicKey',
            '/payments/stripe/webhookSecret': '/stripeWebhookSecret',
          }[path] ?? path
        );
      };
      const { app: updated } = await publishing(rename, () =>
        change(
          request,
          (live) => {
            const providers: NonNullable<AppConfig['socialProviders']> = { ...live.socialProviders };
            for (const [provider, idField, secretField] of PROVIDER_FIELDS) {
              if (sent(idField) === undefined && sent(secretField) === undefined) continue;
              providers[provider] = {
                ...providers[provider],
                ...(sent(idField) !== undefined ? { clientId: sent(idField)!.trim() } : {}),
                ...(sent(secretField) !== undefined ? { clientSecret: sent(secretField)!.trim() } : {}),
              };
            }
            if (sent('appleTeamId') !== undefined || sent('appleKeyId') !== undefined) {
              providers.apple = {
                ...providers.apple,
                ...(sent('appleTeamId') !== undefined ? { teamId: sent('appleTeamId')!.trim() } : {}),
                ...(sent('appleKeyId') !== undefined ? { keyId: sent('appleKeyId')!.trim() } : {}),
              };
            }
            const stripeSent = ['stripeSecretKey', 'stripePublicKey', 'stripeWebhookSecret'].some((field) => sent(field) !== undefined);
            const stripe = stripeSent
              ? {
                  ...live.payments?.stripe,
                  ...(sent('stripePublicKey') !== undefined ? { publishableKey: sent('stripePublicKey')!.trim() } : {}),
                  ...(sent('stripeSecretKey') !== undefined ? { secretKey: sent('stripeSecretKey')!.trim() } : {}),
                  ...(sent('stripeWebhookSecret') !== undefined ? { webhookSecret: sent('stripeWebhookSecret')!.trim() } : {}),
                }
              : live.payments?.stripe;
            const payments = stripe ? { ...live.payments, stripe } : live.payments;
            return { ...live, socialProviders: providers, ...(payments ? { payments } : {}) };
          },
          'Credentials changed through the management API',
        ),
      );
      return credentialsStateView(updated);
    },
  );

  app.put(
    '/app/custom-tenant-user-params-config',
    {
      schema: {
        tags,
        security,
        summary: "Replace the app's custom signup fields",
        body: CustomParamsConfigBody,
        response: { 200: CustomParamsConfig, ...refusals },
      },
    },
    async (request) => {
      const refused: Record<string, FieldIssue> = {};
      request.body.forEach((field, index) => {
        if (!FOYER_FIELD_TYPES.includes(field.type))
          refused[`${index}.type`] = keyedIssue('unsupportedFieldType', `Choose one of: ${FOYER_FIELD_TYPES.join(', ')}`);
      });
      if (Object.keys(refused).length > 0) throw badInput(refused);
      const { app: updated } = await publishing(renamedPrefix('/customSignupFields', ''), () =>
        change(
          request,
          (live) => {
            const before = new Map((live.customSignupFields ?? []).map((field) => [field.label, field]));
            const fields = request.body.map((field): CustomSignupField => {
              // Where a value is stored is Foyer's own setting: a field that keeps its label keeps it.
              const target = before.get(field.label)?.target;
              return {
                label: field.label,
                type: field.type as CustomSignupField['type'],
                userLabel: field.userLabel,
                ...(field.regex ? { regex: field.regex } : {}),
                ...(field.required !== undefined ? { required: field.required } : {}),
                ...(field.options !== undefined ? { options: field.options } : {}),
                ...(target ? { target } : {}),
              };
            });
            return { ...live, customSignupFields: fields };
          },
          'Custom signup fields changed through the management API',
        ),
      );
      return customParamsConfig(updated.settings).params.map(({ label, type, userLabel, regex, required }) => ({
        label,
        type,
        userLabel,
        regex,
        required,
      }));
    },
  );

  // ---- Plans and taxes ------------------------------------------------------------------------

  /** A plan or tax change: `edit` answers the new list and the index its problems are named from. */
  async function changeCatalog<Item>(
    request: FastifyRequest,
    list: 'plans' | 'taxes',
    edit: (items: Item[]) => { items: Item[]; index: number },
    note: string,
  ): Promise<App> {
    let index = 0;
    const { app: updated } = await publishing(
      (path) => renamedPrefix(`/payments/${list}/${index}`, '')(path),
      () =>
        change(
          request,
          (live) => {
            const edited = edit(((live.payments?.[list] ?? []) as Item[]).slice());
            index = edited.index;
            return { ...live, payments: { ...live.payments, [list]: edited.items } };
          },
          note,
        ),
    );
    return updated;
  }

  const planAt = (items: PricingPlan[], key: string) => items.findIndex((plan) => plan.key === key);

  app.get(
    '/payments/plan/:id',
    { schema: { tags, security, summary: 'One plan, by key', params: CatalogIdParams, response: { 200: Plan, ...refusals } } },
    async (request) => {
      const plan = findPlan(appOf(request), request.params.id);
      if (!plan) throw unknownPlan();
      return planView(plan);
    },
  );

  app.post(
    '/payments/plan',
    { schema: { tags, security, summary: 'Add a plan', body: PlanBody, response: { 201: Plan, ...refusals } } },
    async (request, reply) => {
      const plan = planOf(request.body);
      const updated = await changeCatalog<PricingPlan>(
        request,
        'plans',
        (plans) => {
          if (planAt(plans, plan.key) >= 0)
            throw new ManagementError(409, 'CONFLICT', 'The app has a plan with this key', 'NBLOCKS_CONFLICT');
          return { items: [...plans, plan], index: plans.length };
        },
        `Plan ${plan.key} added through the management API`,
      );
      return reply.status(201).send(planView(findPlan(updated, plan.key)!));
    },
  );

  app.put(
    '/payments/plan/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Change a plan (its key stays)',
        params: CatalogIdParams,
        body: PlanBody,
        response: { 200: Plan, ...refusals },
      },
    },
    async (request) => {
      const plan = planOf(request.body);
      if (plan.key !== request.params.id)
        throw badInput({ key: keyedIssue('planKeyFixed', "A plan's key cannot change: workspaces hold it") });
      const updated = await changeCatalog<PricingPlan>(
        request,
        'plans',
        (plans) => {
          const index = planAt(plans, plan.key);
          if (index < 0) throw unknownPlan();
          plans[index] = plan;
          return { items: plans, index };
        },
        `Plan ${plan.key} changed through the management API`,
      );
      return planView(findPlan(updated, plan.key)!);
    },
  );

  app.delete(
    '/payments/plan/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Remove a plan no workspace holds',
        params: CatalogIdParams,
        response: { 204: NoContent, ...refusals },
      },
    },
    async (request, reply) => {
      const key = request.params.id;
      if (!findPlan(appOf(request), key)) throw unknownPlan();
      const holding = or(eq(tenants.plan, key), eq(tenants.pendingPlan, key));
      const [used] = await db
        .select({ count: count() })
        .from(tenants)
        .where(and(eq(tenants.appId, appOf(request).id), holding));
      if ((used?.count ?? 0) > 0) throw new ManagementError(409, 'PLAN_IN_USE', 'Workspaces hold this plan; move them to another first');
      await changeCatalog<PricingPlan>(
        request,
        'plans',
        (plans) => {
          const index = planAt(plans, key);
          if (index < 0) throw unknownPlan();
          return { items: plans.filter((plan) => plan.key !== key), index };
        },
        `Plan ${key} removed through the management API`,
      );
      return reply.status(204).send(null);
    },
  );

  const taxAt = (items: Tax[], id: string) => items.findIndex((tax) => taxId(tax) === id);

  app.get(
    '/payments/tax/:id',
    {
      schema: { tags, security, summary: 'One tax, by countryCode:name', params: CatalogIdParams, response: { 200: TaxView, ...refusals } },
    },
    async (request) => {
      const tax = taxesOf(appOf(request)).find((each) => taxId(each) === request.params.id);
      if (!tax) throw unknownTax();
      return taxGraphql(tax);
    },
  );

  app.post(
    '/payments/tax',
    { schema: { tags, security, summary: 'Add a tax', body: TaxBody, response: { 201: TaxView, ...refusals } } },
    async (request, reply) => {
      const tax = taxOf(request.body);
      const id = taxId(tax);
      const updated = await changeCatalog<Tax>(
        request,
        'taxes',
        (taxes) => {
          if (taxAt(taxes, id) >= 0) throw new ManagementError(409, 'CONFLICT', 'The app has this tax in this country', 'NBLOCKS_CONFLICT');
          return { items: [...taxes, tax], index: taxes.length };
        },
        `Tax ${id} added through the management API`,
      );
      return reply.status(201).send(taxGraphql(taxesOf(updated).find((each) => taxId(each) === id)!));
    },
  );

  app.put(
    '/payments/tax/:id',
    {
      schema: { tags, security, summary: 'Change a tax', params: CatalogIdParams, body: TaxBody, response: { 200: TaxView, ...refusals } },
    },
    async (request) => {
      const tax = taxOf(request.body);
      const id = taxId(tax);
      const updated = await changeCatalog<Tax>(
        request,
        'taxes',
        (taxes) => {
          const index = taxAt(taxes, request.params.id);
          if (index < 0) throw unknownTax();
          if (id !== request.params.id && taxAt(taxes, id) >= 0)
            throw new ManagementError(409, 'CONFLICT', 'The app has this tax in this country', 'NBLOCKS_CONFLICT');
          taxes[index] = tax;
          return { items: taxes, index };
        },
        `Tax ${request.params.id} changed through the management API`,
      );
      return taxGraphql(taxesOf(updated).find((each) => taxId(each) === id)!);
    },
  );

  app.delete(
    '/payments/tax/:id',
    { schema: { tags, security, summary: 'Remove a tax', params: CatalogIdParams, response: { 204: NoContent, ...refusals } } },
    async (request, reply) => {
      await changeCatalog<Tax>(
        request,
        'taxes',
        (taxes) => {
          const index = taxAt(taxes, request.params.id);
          if (index < 0) throw unknownTax();
          return { items: taxes.filter((_, at) => at !== index), index };
        },
        `Tax ${request.params.id} removed through the management API`,
      );
      return reply.status(204).send(null);
    },
  );

  // ---- Roles: Foyer's fixed table ----------------------------------------------------------------

  const rolesFixed = async () => {
    throw new ManagementError(
      403,
      'ROLES_FIXED',
      "Roles and privileges are Foyer's fixed table (OWNER, ADMIN, MANAGER, VIEWER); they are read, not written",
      'NBLOCKS_FORBIDDEN_EXCEPTION',
    );
  };
  // Untagged, so the OpenAPI document lists no operation that never succeeds (server/management/openapi.ts).
  app.post('/role', rolesFixed);
  app.put('/role/:id', rolesFixed);
  app.delete('/role/:id', rolesFixed);
  app.post('/role/privilege', rolesFixed);
  app.put('/role/privilege/:id', rolesFixed);
  app.delete('/role/privilege/:id', rolesFixed);
}
