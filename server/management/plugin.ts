// The management API on the API host (/management): what an app's back end calls, with one of the
// app's API keys in x-api-key, to create and manage the app's workspaces and their members. Paths,
// headers and bodies are those of the original product's Node client (@nebulr-group/nblocks-ts-client,
// ORIGINAL-CONTRACT.md section 4), so a back end written against it works by pointing its base URL
// here (NBLOCKS_ACCOUNT_API_URL). Every write goes through the services the GraphQL and admin APIs
// use, so their rules (last owner, roles, limits, audit) hold here too.
//
// Who may call: an API key of the app, nothing else (a console or member token is refused). The
// workspace of /tenant/user* is x-tenant-id, honoured only here and only for a workspace of the key's
// app: another app's workspace answers 404 exactly like an unknown id. No CORS: servers call this.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { and, asc, eq, ne } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FoyerContext } from '../context.ts';
import type { App } from '../apps/lookup.ts';
import { findApiKey } from '../apps/api-keys.ts';
import { apps, tenants, tenantUsers, users } from '../db/schema.ts';
import type { AppKeyCaller } from '../auth/app-key-caller.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { attributeCatalog } from '../graphql/attributes/catalog.ts';
import { keyedIssue, plainIssue, type FieldIssue } from '../http/field-issues.ts';
import { findTenant } from '../payments/service.ts';
import { findPlan, findPrice, plansOf, taxesOf } from '../payments/catalog.ts';
import { taxGraphql, tenantPaymentDetails } from '../graphql/payments/views.ts';
import { getTenant, toTenant, updateTenant } from '../graphql/tenants/service.ts';
import { getMember, memberColumns, toUser, updateMemberProfile } from '../graphql/users/service.ts';
import { checkListArguments, listUsersSelect } from '../graphql/users/list.ts';
import { deleteUser, issuePasswordLink, sendPasswordResetLink, updateUser } from '../graphql/users/administration.ts';
import { addMember } from '../graphql/invitations/service.ts';
import { setTenantPlanDetails } from '../graphql/payments/service.ts';
import { customParamsConfig } from '../graphql/custom-params/service.ts';
import { checkLocale, checkLogo, InputProblems, isEmail } from '../graphql/input.ts';
import { addWorkspaceFromBackEnd, deleteWorkspace } from '../admin/workspaces.ts';
import type { WriteOrigin } from '../admin/caller.ts';
import { TenantModel, TenantUserModel } from '../../common/api/models.ts';
import { managementFederationRoutes } from './federation.ts';
import { registerSettingsRoutes } from './app-settings.ts';
import { registerPaymentLinkRoutes } from './payment-links.ts';
import { registerMessageRoutes } from './messages.ts';
import { badInput, installManagementErrors, ManagementError, unauthenticated, unknownTenant } from './errors.ts';
import {
  AppModel,
  CreateTenantBody,
  CreateUserBody,
  CredentialsState,
  CustomParamsConfig,
  ErrorBody,
  IdParams,
  NoContent,
  Page,
  PasswordLink,
  PaymentDetails,
  PlanDetailsBody,
  PlanList,
  Privilege,
  Role,
  TaxList,
  TenantHeaders,
  UpdateTenantBody,
  UpdateUserBody,
} from './schemas.ts';
import {
  appView,
  credentialsStateView,
  paymentDetailsView,
  planView,
  privilegesView,
  rolesView,
  tenantUserView,
  tenantView,
} from './views.ts';

export const MANAGEMENT_PREFIX = '/management';
export const MANAGEMENT_TAG = 'Management API';

interface KeyHolder {
  app: App;
  apiKeyId: string;
}

/** The refusals every route may answer, for the OpenAPI document. */
const refusals = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };
const security = [{ apiKey: [] }];
const tags = [MANAGEMENT_TAG];

export async function managementPlugin(parent: FastifyInstance, context: FoyerContext): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { db, payments } = context;
  installManagementErrors(app);

  const holders = new WeakMap<FastifyRequest, KeyHolder>();
  // Before the body is read or checked: without a key, nothing about the request is answered.
  app.addHook('onRequest', async (request) => {
    const key = request.headers['x-api-key'];
    // A bearer token (a console owner's or a member's) is no credential here, even beside a key.
    if (request.headers.authorization !== undefined || typeof key !== 'string') throw unauthenticated();
    const found = await findApiKey(db, key.trim());
    if (!found) throw unauthenticated();
    const [row] = await db.select().from(apps).where(eq(apps.id, found.appId)).limit(1);
    if (!row) throw unauthenticated();
    holders.set(request, { app: row, apiKeyId: found.id });
  });

  const holderOf = (request: FastifyRequest): KeyHolder => {
    const holder = holders.get(request);
    if (!holder) throw unauthenticated();
    return holder;
  };

  await app.register(managementFederationRoutes, { context, appOf: (request) => holderOf(request).app, tags });

  /** The key's app acting on workspace `tenantId`, when that is one of the app's workspaces. */
  async function actorFor(request: FastifyRequest, tenantId: string): Promise<AppKeyCaller> {
    const { app: keyApp, apiKeyId } = holderOf(request);
    if (!(await findTenant(db, keyApp.id, tenantId))) throw unknownTenant();
    return { kind: 'appKey', app: keyApp, tenantId, apiKeyId };
  }

  // The route's headers schema (TenantHeaders) has checked x-tenant-id before this runs.
  const tenantActor = (request: FastifyRequest) => actorFor(request, String(request.headers['x-tenant-id']));

  const serviceContext = (request: FastifyRequest): GraphQLContext => ({
    ...context,
    caller: { kind: 'none' },
    clientIp: request.ip,
    log: request.log,
  });
  const writeOrigin = (request: FastifyRequest, holder: KeyHolder): WriteOrigin => ({
    caller: { kind: 'apiKey', appId: holder.app.id },
    ip: request.ip,
  });
  const tenantResponse = async (keyApp: App, tenantId: string) => tenantView(await getTenant(payments, db, keyApp, tenantId));

  // ---- The app --------------------------------------------------------------------------------

  app.get('/app', { schema: { tags, security, summary: "The key's app", response: { 200: AppModel, ...refusals } } }, async (request) =>
    appView(holderOf(request).app),
  );

  app.get(
    '/app/credentialsState',
    { schema: { tags, security, summary: 'Which provider credentials the app holds', response: { 200: CredentialsState, ...refusals } } },
    async (request) => credentialsStateView(holderOf(request).app),
  );

  app.get(
    '/app/custom-tenant-user-params-config',
    { schema: { tags, security, summary: "The app's custom signup fields", response: { 200: CustomParamsConfig, ...refusals } } },
    async (request) =>
      customParamsConfig(holderOf(request).app.settings).params.map(({ label, type, userLabel, regex, required }) => ({
        label,
        type,
        userLabel,
        regex,
        required,
      })),
  );

  app.get(
    '/role',
    { schema: { tags, security, summary: 'The workspace roles', response: { 200: Type.Array(Role), ...refusals } } },
    async (request) => rolesView(holderOf(request).app),
  );

  app.get(
    '/role/privilege',
    { schema: { tags, security, summary: 'The privileges roles grant', response: { 200: Type.Array(Privilege), ...refusals } } },
    async () => privilegesView(),
  );

  app.get(
    '/payments/plan',
    { schema: { tags, security, summary: "The app's plans", response: { 200: PlanList, ...refusals } } },
    async (request) => plansOf(holderOf(request).app).map(planView),
  );

  app.get(
    '/payments/tax',
    { schema: { tags, security, summary: "The app's taxes", response: { 200: TaxList, ...refusals } } },
    async (request) => taxesOf(holderOf(request).app).map(taxGraphql),
  );

  registerPaymentLinkRoutes(app, context, { actorFor, tags, security });
  registerMessageRoutes(app, context, { tenantActor: (request) => tenantActor(request), tags, security });

  registerSettingsRoutes(app, context, {
    appOf: (request) => holderOf(request).app,
    originOf: (request) => writeOrigin(request, holderOf(request)),
    tags,
    security,
  });

  // ---- Workspaces -----------------------------------------------------------------------------

  app.post(
    '/tenant',
    {
      schema: {
        tags,
        security,
        summary: 'Create a workspace with its owner (an existing identity of the app is reused)',
        body: CreateTenantBody,
        response: { 201: TenantModel, ...refusals },
      },
    },
    async (request, reply) => {
      const holder = holderOf(request);
      const { body } = request;
      const problems = new InputProblems();
      const ownerEmail = body.owner.email.trim();
      if (!isEmail(ownerEmail)) problems.add('owner.email', plainIssue('enterEmail'));
      const locale = body.locale === undefined ? undefined : checkLocale(problems, 'locale', body.locale);
      const logo = body.logo === undefined ? null : checkLogo(problems, 'logo', body.logo);
      if (body.metadata && Object.keys(body.metadata).length > 0)
        problems.add('metadata', keyedIssue('noMetadata', 'Foyer keeps no metadata on a workspace'));
      const plan = body.plan === undefined ? undefined : findPlan(holder.app, body.plan);
      if (body.plan !== undefined && !plan) problems.add('plan', plainIssue('noSuchPlan'));
      if (plan && !body.priceOffer) problems.add('priceOffer', keyedIssue('priceOfferRequired', 'Name the price of the plan'));
      if (plan && body.priceOffer && !findPrice(plan, body.priceOffer)) problems.add('priceOffer', plainIssue('noSuchPrice'));
      problems.throwIfAny();
      if (plan && body.priceOffer && findPrice(plan, body.priceOffer)!.amount > 0 && !payments.providerFor(holder.app)) {
        throw new ManagementError(409, 'PAYMENTS_NOT_CONFIGURED', 'This app takes no payments yet');
      }
      const origin = writeOrigin(request, holder);
      const created = await addWorkspaceFromBackEnd(context, origin, holder.app, {
        name: body.name?.trim() ?? '',
        ownerEmail,
        ownerFirstName: body.owner.firstName?.trim(),
        ownerLastName: body.owner.lastName?.trim(),
        locale,
        onboarded: body.onboarded,
        muteNotifications: body.owner.muteNotifications === true,
      });
      if (logo)
        await updateTenant(
          payments,
          db,
          holder.app,
          created.id,
          { logo },
          { userId: null, tenantUserId: null, ip: request.ip, detail: { apiKeyId: holder.apiKeyId } },
          attributeCatalog(context.config),
        );
      if (plan && body.priceOffer) {
        await setTenantPlanDetails(
          payments,
          db,
          await actorFor(request, created.id),
          { planKey: plan.key, priceOffer: body.priceOffer },
          request.ip,
        );
      }
      return reply.status(201).send(await tenantResponse(holder.app, created.id));
    },
  );

  app.get(
    '/tenant',
    {
      schema: {
        tags,
        security,
        summary: "The app's workspaces, oldest first, a page at a time",
        querystring: Page,
        response: { 200: Type.Array(TenantModel), ...refusals },
      },
    },
    async (request) => {
      const holder = holderOf(request);
      const rows = await db
        .select()
        .from(tenants)
        .where(eq(tenants.appId, holder.app.id))
        .orderBy(asc(tenants.createdAt), asc(tenants.id))
        .offset(request.query.offset ?? 0)
        .limit(request.query.limit ?? 100);
      return rows.map((row) => tenantView(toTenant(payments, holder.app, row)));
    },
  );

  app.get(
    '/tenant/byId/:id',
    { schema: { tags, security, summary: 'One workspace', params: IdParams, response: { 200: TenantModel, ...refusals } } },
    async (request) => {
      const actor = await actorFor(request, request.params.id);
      return tenantResponse(actor.app, actor.tenantId);
    },
  );

  app.put(
    '/tenant/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Change a workspace',
        params: IdParams,
        body: UpdateTenantBody,
        response: { 200: TenantModel, ...refusals },
      },
    },
    async (request) => {
      const actor = await actorFor(request, request.params.id);
      const { body } = request;
      const problems = new InputProblems();
      if (body.metadata && Object.keys(body.metadata).length > 0)
        problems.add('metadata', keyedIssue('noMetadata', 'Foyer keeps no metadata on a workspace'));
      const current = await tenantResponse(actor.app, actor.tenantId);
      // A workspace is onboarded once it has a name (server/graphql/tenants/service.ts): that is set, not sent.
      if (body.onboarded !== undefined && body.onboarded !== current.onboarded && body.name === undefined) {
        problems.add('onboarded', keyedIssue('onboardedByName', 'A workspace is onboarded by giving it a name'));
      }
      problems.throwIfAny();
      const updated = await updateTenant(
        payments,
        db,
        actor.app,
        actor.tenantId,
        { name: body.name, locale: body.locale, logo: body.logo, mfa: body.mfa, federationConnection: body.federationConnection },
        { userId: null, tenantUserId: null, ip: request.ip, detail: { apiKeyId: actor.apiKeyId } },
        attributeCatalog(context.config),
      );
      return tenantView(updated);
    },
  );

  app.delete(
    '/tenant/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a workspace and its memberships',
        params: IdParams,
        response: { 204: NoContent, ...refusals },
      },
    },
    async (request, reply) => {
      const holder = holderOf(request);
      if (!(await deleteWorkspace(db, writeOrigin(request, holder), holder.app, request.params.id))) throw unknownTenant();
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/tenant/:id/paymentDetails',
    {
      schema: {
        tags,
        security,
        summary: "A workspace's plan and payment state",
        params: IdParams,
        response: { 200: PaymentDetails, ...refusals },
      },
    },
    async (request) => {
      const actor = await actorFor(request, request.params.id);
      return paymentDetailsView(await tenantPaymentDetails(payments, db, actor.app, actor.tenantId));
    },
  );

  app.post(
    '/tenant/:id/planDetails',
    {
      schema: {
        tags,
        security,
        summary: "Set a workspace's plan (a paid price waits for its checkout)",
        params: IdParams,
        body: PlanDetailsBody,
        response: { 200: PaymentDetails, ...refusals },
      },
    },
    async (request) => {
      const actor = await actorFor(request, request.params.id);
      return paymentDetailsView(await setTenantPlanDetails(payments, db, actor, request.body, request.ip));
    },
  );

  // ---- A workspace's members (x-tenant-id) ----------------------------------------------------

  const userRoute = (summary: string) => ({ tags, security, summary, headers: TenantHeaders });

  app.post(
    '/tenant/user',
    {
      schema: {
        ...userRoute('Add a member (an invitation, mailed unless muteNotifications)'),
        body: CreateUserBody,
        response: { 201: TenantUserModel, ...refusals },
      },
    },
    async (request, reply) => {
      const actor = await tenantActor(request);
      const { body } = request;
      if (body.customParams && Object.keys(body.customParams).length > 0) {
        throw badInput({
          customParams: keyedIssue('customParamsBySignup', 'Custom values are collected by the signup form, not set here'),
        });
      }
      const user = await addMember(serviceContext(request), actor, {
        email: body.username,
        role: body.role,
        firstName: body.firstName?.trim(),
        lastName: body.lastName?.trim(),
        muteNotifications: body.muteNotifications,
      });
      return reply.status(201).send(tenantUserView(user, await tenantResponse(actor.app, actor.tenantId)));
    },
  );

  app.get(
    '/tenant/user',
    {
      schema: {
        ...userRoute("The workspace's members, oldest first, a page at a time"),
        querystring: Page,
        response: { 200: Type.Array(TenantUserModel), ...refusals },
      },
    },
    async (request) => {
      const actor = await tenantActor(request);
      const rows = await listUsersSelect(
        db,
        actor.tenantId,
        checkListArguments({ offset: request.query.offset, limit: request.query.limit }),
      );
      const tenant = await tenantResponse(actor.app, actor.tenantId);
      return rows.map((row) => tenantUserView(toUser(actor.app, row), tenant));
    },
  );

  /** The member of the actor's workspace, or NBLOCKS_USER_NOT_FOUND. */
  async function memberOf(actor: AppKeyCaller, tenantUserId: string) {
    const [found] = await db
      .select({ id: tenantUsers.id })
      .from(tenantUsers)
      .where(and(eq(tenantUsers.id, tenantUserId), eq(tenantUsers.tenantId, actor.tenantId)))
      .limit(1);
    if (!found) throw new ManagementError(404, 'NOT_FOUND', 'There is no such user in this workspace', 'NBLOCKS_USER_NOT_FOUND');
    return tenantUserView(await getMember(db, actor.app, actor.tenantId, tenantUserId), await tenantResponse(actor.app, actor.tenantId));
  }

  app.get(
    '/tenant/user/:id',
    { schema: { ...userRoute('One member'), params: IdParams, response: { 200: TenantUserModel, ...refusals } } },
    async (request) => memberOf(await tenantActor(request), request.params.id),
  );

  app.put(
    '/tenant/user/:id',
    {
      schema: {
        ...userRoute("Change a member's role, status, names or onboarding (the last enabled owner stays)"),
        params: IdParams,
        body: UpdateUserBody,
        response: { 200: TenantUserModel, ...refusals },
      },
    },
    async (request) => {
      const actor = await tenantActor(request);
      const { body } = request;
      const refused: Record<string, FieldIssue> = {};
      if (body.teams && body.teams.length > 0) refused.teams = keyedIssue('noTeams', 'Foyer has no teams yet');
      if (body.phoneNumber !== undefined)
        refused.phoneNumber = keyedIssue('phoneNumberByPerson', "A phone number is the person's own second factor, set by them");
      if (body.consentsToPrivacyPolicy !== undefined)
        refused.consentsToPrivacyPolicy = keyedIssue('consentByPerson', 'Only the person consents, from their profile');
      if (Object.keys(refused).length > 0) throw badInput(refused);
      const context_ = serviceContext(request);
      await memberOf(actor, request.params.id);
      if (body.role !== undefined || body.enabled !== undefined) {
        await updateUser(context_, actor, { id: request.params.id, role: body.role, enabled: body.enabled });
      }
      await updateMemberProfile(context_, actor, request.params.id, body);
      return memberOf(actor, request.params.id);
    },
  );

  app.delete(
    '/tenant/user/:id',
    { schema: { ...userRoute('Remove a member (the identity stays)'), params: IdParams, response: { 204: NoContent, ...refusals } } },
    async (request, reply) => {
      await deleteUser(serviceContext(request), await tenantActor(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/tenant/user/:id/associations',
    {
      schema: {
        ...userRoute("The same person's memberships of the app's other workspaces"),
        params: IdParams,
        response: { 200: Type.Array(TenantUserModel), ...refusals },
      },
    },
    async (request) => {
      const actor = await tenantActor(request);
      await memberOf(actor, request.params.id);
      const [target] = await db.select({ userId: tenantUsers.userId }).from(tenantUsers).where(eq(tenantUsers.id, request.params.id));
      const rows = await db
        .select({ member: memberColumns, tenant: tenants })
        .from(tenantUsers)
        .innerJoin(users, eq(users.id, tenantUsers.userId))
        .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
        .where(and(eq(tenantUsers.userId, target!.userId), eq(tenants.appId, actor.app.id), ne(tenantUsers.tenantId, actor.tenantId)))
        .orderBy(asc(tenantUsers.createdAt), asc(tenantUsers.id));
      return rows.map((row) => tenantUserView(toUser(actor.app, row.member), tenantView(toTenant(payments, actor.app, row.tenant))));
    },
  );

  app.post(
    '/tenant/user/:id/password',
    {
      schema: { ...userRoute('Mail the member a link to set a new password'), params: IdParams, response: { 204: NoContent, ...refusals } },
    },
    async (request, reply) => {
      await sendPasswordResetLink(serviceContext(request), await tenantActor(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/tenant/user/:id/passwordLink',
    {
      schema: {
        ...userRoute("The link to set a password, answered instead of mailed (a pending member's invitation link)"),
        params: IdParams,
        response: { 200: PasswordLink, ...refusals },
      },
    },
    async (request, reply) => {
      const link = await issuePasswordLink(serviceContext(request), await tenantActor(request), request.params.id);
      // A JSON string (as the schema says): Fastify would send a bare string as text/plain.
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(link));
    },
  );
}
