// The admin API on the API host (/admin): what the configurator and an app owner's automation call
// to create apps, edit a draft of an app's settings, publish it as a version, restore versions, and
// manage the API key, logo and first workspace (docs/configurator.md "Admin API").
//
// CORS: only the hosted UI's origin (where the configurator runs) may call from a browser, with the
// Authorization and Content-Type headers; callers using x-api-key are servers, which need no CORS.
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FoyerContext } from '../context.ts';
import { AccessTokenVerifier } from '../auth/access-tokens.ts';
import { appFor, resolveAdminCaller, type Access, type WriteOrigin } from './caller.ts';
import { installAdminErrors } from './errors.ts';
import { LOGO_TYPES, MAX_LOGO_BYTES } from './logo.ts';
import {
  createApp,
  describeApp,
  discardDraft,
  draftChanges,
  getVersion,
  listApps,
  listVersions,
  publishDraft,
  regenerateApiKey,
  regenerateClientSecret,
  restoreVersion,
  saveDraft,
  uploadLogo,
} from './service.ts';
import { addWorkspace } from './workspaces.ts';
import { appAuditLog } from './audit-log.ts';
import { addApiKey, appApiKeys, removeApiKey } from './api-keys.ts';
import { Type } from 'typebox';
import { handlerCheckedBody } from '../http/openapi.ts';
import { refusals } from '../../common/api/errors.ts';
import {
  ApiKeyList,
  ApiKeyParams,
  AppDetailSchema,
  AppList,
  AppParams,
  AuditLogPage,
  AuditLogQuery,
  ChangeList,
  ClientSecretAnswer,
  CreatedAppSchema,
  DraftAnswer,
  DraftBody,
  LogoAnswer,
  LogoBody,
  NewApiKey,
  NewApiKeyBody,
  NewAppBody,
  NewWorkspaceBody,
  PublishBody,
  RegeneratedApiKey,
  VersionAnswer,
  VersionDetail,
  VersionList,
  VersionParams,
  WorkspaceAnswer,
} from '../../common/api/admin.ts';

export const ADMIN_PREFIX = '/admin';
/** The OpenAPI tag of every admin route (server/management/openapi.ts). */
export const ADMIN_TAG = 'Admin API';
/** A console owner's access token, or the app's API key. */
export const ADMIN_SECURITY: Record<string, string[]>[] = [{ consoleToken: [] }, { apiKey: [] }];

type AppRequest = FastifyRequest<{ Params: { appId: string } }>;
type VersionRequest = FastifyRequest<{ Params: { appId: string; version: string } }>;

/** A plugin of admin routes another capability adds (it imports the admin callers, so admin cannot import it). */
export type AdminExtension = (app: FastifyInstance, context: FoyerContext) => Promise<void>;

export async function adminPlugin(app: FastifyInstance, context: FoyerContext & { extensions?: AdminExtension[] }): Promise<void> {
  const { db, config } = context;
  const verifier = new AccessTokenVerifier(db, config.urls.auth);

  await app.register(cors, {
    origin: config.urls.ui,
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['authorization', 'content-type'],
    maxAge: 600,
  });
  installAdminErrors(app);
  // Logos arrive as raw bytes of whatever type the client declares; the logo check decides. Other
  // routes read JSON, and a body of another type fails their "must be a JSON object" check.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  const callerOf = (request: FastifyRequest) => resolveAdminCaller(db, verifier, request);

  /** The caller, and the app of the path when they may reach it as `access` asks. */
  async function target(request: AppRequest, access: Access) {
    const caller = await callerOf(request);
    const found = await appFor(db, caller, request.params.appId, access);
    const origin: WriteOrigin = { caller, ip: request.ip };
    return { app: found, origin };
  }

  const route = (summary: string) => ({ tags: [ADMIN_TAG], summary, security: ADMIN_SECURITY });
  const refused = refusals(400, 401, 403, 404);

  app.get('/apps', { schema: { ...route("The caller's apps"), response: { 200: AppList, ...refused } } }, async (request) => ({
    apps: await listApps(db, await callerOf(request)),
  }));

  app.post(
    '/apps',
    {
      schema: { ...route('A new app, live at once as version 1'), response: { 201: CreatedAppSchema, ...refusals(400, 401, 403, 429) } },
      config: handlerCheckedBody(NewAppBody),
    },
    async (request, reply) => {
      const origin: WriteOrigin = { caller: await callerOf(request), ip: request.ip };
      return reply.status(201).send(await createApp(context, origin, request.body));
    },
  );

  app.get(
    '/apps/:appId',
    { schema: { ...route('The app: its live settings and its draft'), params: AppParams, response: { 200: AppDetailSchema, ...refused } } },
    async (request: AppRequest) => describeApp(db, (await target(request, 'read')).app),
  );

  app.put(
    '/apps/:appId/draft',
    {
      schema: { ...route('Save the draft of the app settings'), params: AppParams, response: { 200: DraftAnswer, ...refused } },
      config: handlerCheckedBody(DraftBody),
    },
    async (request: AppRequest) => {
      const { app: found, origin } = await target(request, 'write');
      return { draft: await saveDraft(context, origin, found, request.body) };
    },
  );

  app.delete(
    '/apps/:appId/draft',
    { schema: { ...route('Discard the draft'), params: AppParams, response: { 204: Type.Null(), ...refused } } },
    async (request: AppRequest, reply) => {
      const { app: found, origin } = await target(request, 'write');
      await discardDraft(context, origin, found);
      return reply.status(204).send();
    },
  );

  app.get(
    '/apps/:appId/changes',
    { schema: { ...route('What publishing the draft would change'), params: AppParams, response: { 200: ChangeList, ...refused } } },
    async (request: AppRequest) => draftChanges(db, (await target(request, 'read')).app),
  );

  app.post(
    '/apps/:appId/publish',
    {
      schema: {
        ...route('Publish the draft as the next version'),
        params: AppParams,
        response: { 201: VersionAnswer, ...refusals(400, 401, 403, 404, 409) },
      },
      config: handlerCheckedBody(PublishBody),
    },
    async (request: AppRequest, reply) => {
      const { app: found, origin } = await target(request, 'write');
      return reply.status(201).send({ version: await publishDraft(context, origin, found, request.body) });
    },
  );

  app.get(
    '/apps/:appId/versions',
    { schema: { ...route("The app's published versions, newest first"), params: AppParams, response: { 200: VersionList, ...refused } } },
    async (request: AppRequest) => ({ versions: await listVersions(db, (await target(request, 'read')).app) }),
  );

  app.get(
    '/apps/:appId/versions/:version',
    { schema: { ...route('One version and its settings'), params: VersionParams, response: { 200: VersionDetail, ...refused } } },
    async (request: VersionRequest) => getVersion(db, (await target(request, 'read')).app, request.params.version),
  );

  app.post(
    '/apps/:appId/versions/:version/restore',
    { schema: { ...route('Make a version the draft'), params: VersionParams, response: { 200: DraftAnswer, ...refused } } },
    async (request: VersionRequest) => {
      const { app: found, origin } = await target(request, 'write');
      return { draft: await restoreVersion(context, origin, found, request.params.version) };
    },
  );

  app.post(
    '/apps/:appId/api-key',
    {
      schema: {
        ...route('Replace every API key of the app with one new key (older; see api-keys)'),
        params: AppParams,
        response: { 201: RegeneratedApiKey, ...refused },
      },
    },
    async (request: AppRequest, reply) => {
      const { app: found, origin } = await target(request, 'write');
      return reply.status(201).send({ apiKey: await regenerateApiKey(db, origin, found) });
    },
  );

  const keyRefusals = refusals(400, 401, 403, 404, 409);

  app.get(
    '/apps/:appId/api-keys',
    {
      schema: {
        ...route("The app's API keys (never the keys themselves)"),
        params: AppParams,
        response: { 200: ApiKeyList, ...keyRefusals },
      },
    },
    async (request: AppRequest) => appApiKeys(db, (await target(request, 'read')).app),
  );

  app.post<{ Params: { appId: string }; Body: NewApiKeyBody }>(
    '/apps/:appId/api-keys',
    {
      schema: {
        ...route('A new named API key, answered this once'),
        params: AppParams,
        body: NewApiKeyBody,
        response: { 201: NewApiKey, ...keyRefusals },
      },
    },
    async (request, reply) => {
      const { app: found, origin } = await target(request, 'write');
      return reply.status(201).send(await addApiKey(db, origin, found, request.body));
    },
  );

  app.delete<{ Params: { appId: string; keyId: string } }>(
    '/apps/:appId/api-keys/:keyId',
    { schema: { ...route('Revoke an API key'), params: ApiKeyParams, response: { 204: Type.Null(), ...keyRefusals } } },
    async (request, reply) => {
      const { app: found, origin } = await target(request, 'write');
      await removeApiKey(db, origin, found, request.params.keyId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/apps/:appId/client-secret',
    {
      schema: {
        ...route('A new client secret for a confidential app, answered this once (the old one stops working)'),
        params: AppParams,
        response: { 201: ClientSecretAnswer, ...refused },
      },
    },
    async (request: AppRequest, reply) => {
      const { app: found, origin } = await target(request, 'write');
      return reply.status(201).send({ clientSecret: await regenerateClientSecret(context, origin, found) });
    },
  );

  app.post(
    '/apps/:appId/logo',
    {
      bodyLimit: MAX_LOGO_BYTES,
      schema: {
        ...route('Upload a logo (the raw image bytes, typed by Content-Type)'),
        params: AppParams,
        response: { 201: LogoAnswer, ...refusals(400, 401, 403, 404, 413, 429) },
      },
      config: handlerCheckedBody(LogoBody, LOGO_TYPES),
    },
    async (request: AppRequest, reply) => {
      const { app: found, origin } = await target(request, 'write');
      const url = await uploadLogo(context, origin, found, { contentType: request.headers['content-type'], body: request.body });
      return reply.status(201).send({ url });
    },
  );

  app.get<{ Params: { appId: string }; Querystring: AuditLogQuery }>(
    '/apps/:appId/audit-log',
    {
      schema: {
        ...route("The app's audit log, newest first"),
        params: AppParams,
        querystring: AuditLogQuery,
        response: { 200: AuditLogPage, ...refused },
      },
    },
    async (request) => appAuditLog(db, (await target(request, 'read')).app, request.query),
  );

  app.post(
    '/apps/:appId/workspaces',
    {
      schema: {
        ...route('A workspace of the app with its OWNER, who is mailed a way in'),
        params: AppParams,
        response: { 201: WorkspaceAnswer, ...refusals(400, 401, 403, 404, 429) },
      },
      config: handlerCheckedBody(NewWorkspaceBody),
    },
    async (request: AppRequest, reply) => {
      const { app: found, origin } = await target(request, 'write');
      return reply.status(201).send({ workspace: await addWorkspace(context, origin, found, request.body) });
    },
  );

  // Routes other capabilities add under /admin (server/app.ts: the webhooks'), with this plugin's CORS
  // and error answers. Their own context object: this one carries the prefix, which would apply twice.
  for (const extension of context.extensions ?? []) {
    await app.register(extension, { config, db, notifier: context.notifier, payments: context.payments });
  }
}
