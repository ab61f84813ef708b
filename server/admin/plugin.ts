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
import { MAX_LOGO_BYTES } from './logo.ts';
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
import { appAuditLog, auditLogQuery, type AuditLogFilter } from './audit-log.ts';
import {
  addApiKey,
  ADMIN_TAG,
  AdminErrorBody,
  ApiKeyList,
  ApiKeyParams,
  appApiKeys,
  NewApiKey,
  NewApiKeyBody,
  removeApiKey,
} from './api-keys.ts';
import { Type, type Static } from 'typebox';

export const ADMIN_PREFIX = '/admin';

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

  app.get('/apps', async (request) => ({ apps: await listApps(db, await callerOf(request)) }));

  app.post('/apps', async (request, reply) => {
    const origin: WriteOrigin = { caller: await callerOf(request), ip: request.ip };
    return reply.status(201).send(await createApp(context, origin, request.body));
  });

  app.get('/apps/:appId', async (request: AppRequest) => describeApp(db, (await target(request, 'read')).app));

  app.put('/apps/:appId/draft', async (request: AppRequest) => {
    const { app: found, origin } = await target(request, 'write');
    return { draft: await saveDraft(context, origin, found, request.body) };
  });

  app.delete('/apps/:appId/draft', async (request: AppRequest, reply) => {
    const { app: found, origin } = await target(request, 'write');
    await discardDraft(db, origin, found);
    return reply.status(204).send();
  });

  app.get('/apps/:appId/changes', async (request: AppRequest) => draftChanges(db, (await target(request, 'read')).app));

  app.post('/apps/:appId/publish', async (request: AppRequest, reply) => {
    const { app: found, origin } = await target(request, 'write');
    return reply.status(201).send({ version: await publishDraft(context, origin, found, request.body) });
  });

  app.get('/apps/:appId/versions', async (request: AppRequest) => ({
    versions: await listVersions(db, (await target(request, 'read')).app),
  }));

  app.get('/apps/:appId/versions/:version', async (request: VersionRequest) =>
    getVersion(db, (await target(request, 'read')).app, request.params.version),
  );

  app.post('/apps/:appId/versions/:version/restore', async (request: VersionRequest) => {
    const { app: found, origin } = await target(request, 'write');
    return { draft: await restoreVersion(db, origin, found, request.params.version) };
  });

  app.post('/apps/:appId/api-key', async (request: AppRequest, reply) => {
    const { app: found, origin } = await target(request, 'write');
    return reply.status(201).send({ apiKey: await regenerateApiKey(db, origin, found) });
  });

  const keyRoute = { tags: [ADMIN_TAG], security: [{ consoleToken: [] }, { apiKey: [] }] as Record<string, string[]>[] };
  const keyRefusals = { 400: AdminErrorBody, 401: AdminErrorBody, 403: AdminErrorBody, 404: AdminErrorBody, 409: AdminErrorBody };

  app.get(
    '/apps/:appId/api-keys',
    { schema: { ...keyRoute, summary: "The app's API keys (never the keys themselves)", response: { 200: ApiKeyList, ...keyRefusals } } },
    async (request: AppRequest) => appApiKeys(db, (await target(request, 'read')).app),
  );

  app.post<{ Params: { appId: string }; Body: Static<typeof NewApiKeyBody> }>(
    '/apps/:appId/api-keys',
    {
      schema: {
        ...keyRoute,
        summary: 'A new named API key, answered this once',
        body: NewApiKeyBody,
        response: { 201: NewApiKey, ...keyRefusals },
      },
    },
    async (request, reply) => {
      const { app: found, origin } = await target(request, 'write');
      return reply.status(201).send(await addApiKey(db, origin, found, request.body));
    },
  );

  app.delete<{ Params: Static<typeof ApiKeyParams> }>(
    '/apps/:appId/api-keys/:keyId',
    { schema: { ...keyRoute, summary: 'Revoke an API key', params: ApiKeyParams, response: { 204: Type.Null(), ...keyRefusals } } },
    async (request, reply) => {
      const { app: found, origin } = await target(request, 'write');
      await removeApiKey(db, origin, found, request.params.keyId);
      return reply.status(204).send();
    },
  );

  app.post('/apps/:appId/client-secret', async (request: AppRequest, reply) => {
    const { app: found, origin } = await target(request, 'write');
    return reply.status(201).send({ clientSecret: await regenerateClientSecret(context, origin, found) });
  });

  app.post('/apps/:appId/logo', { bodyLimit: MAX_LOGO_BYTES }, async (request: AppRequest, reply) => {
    const { app: found, origin } = await target(request, 'write');
    const url = await uploadLogo(context, origin, found, { contentType: request.headers['content-type'], body: request.body });
    return reply.status(201).send({ url });
  });

  app.get<{ Params: { appId: string }; Querystring: AuditLogFilter }>(
    '/apps/:appId/audit-log',
    { schema: { tags: [ADMIN_TAG], summary: "The app's audit log", querystring: auditLogQuery } },
    async (request) => appAuditLog(db, (await target(request, 'read')).app, request.query),
  );

  app.post('/apps/:appId/workspaces', async (request: AppRequest, reply) => {
    const { app: found, origin } = await target(request, 'write');
    return reply.status(201).send({ workspace: await addWorkspace(context, origin, found, request.body) });
  });

  // Routes other capabilities add under /admin (server/app.ts: the webhooks'), with this plugin's CORS
  // and error answers. Their own context object: this one carries the prefix, which would apply twice.
  for (const extension of context.extensions ?? []) {
    await app.register(extension, { config, db, notifier: context.notifier, payments: context.payments });
  }
}
