// A workspace's logo, uploaded from its settings page (POST /workspace/logo on the API host) by an
// OWNER or ADMIN (TENANT_WRITE) with the API's access token. The same checks as the configurator's
// logo upload (server/admin/logo.ts: declared type matched by the file's first bytes, no SVG,
// 256 KiB), stored and served like app logos (/{appId}/assets/{id}); the workspace's logo then names it.
import cors from '@fastify/cors';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FoyerContext } from '../context.ts';
import { tenants } from '../db/schema.ts';
import { confirmAttempt, releaseAttempt, reserveAttempt, type Limit } from '../audit/limits.ts';
import { AccessTokenVerifier } from '../auth/access-tokens.ts';
import { resolveCaller } from '../auth/callers.ts';
import { AdminError, installAdminErrors } from '../admin/errors.ts';
import { assetUrl, checkLogo, LOGO_TYPES, MAX_LOGO_BYTES, removeUnusedAssets, storeLogo } from '../admin/logo.ts';
import { Type } from 'typebox';
import { handlerCheckedBody, hostedScreensRoute, WORKSPACE_TAG } from '../http/openapi.ts';
import { refusals } from '../../common/api/errors.ts';
import { LogoBody } from '../../common/api/admin.ts';
import { emitTenantEvent } from '../outbox/outbox.ts';

export const WORKSPACE_PREFIX = '/workspace';

const WorkspaceLogoAnswer = Type.Object({ logo: Type.String({ description: "The uploaded logo's address" }) });

/**
 * At most 20 uploads an hour per workspace, like an app's logo. Counted per workspace: the attempt's
 * key (detail.username, server/audit/limits.ts) carries the workspace id.
 */
export const WORKSPACE_LOGO_UPLOADS: Limit = { type: 'tenant.logo_uploaded', max: 20, windowMinutes: 60, per: ['app', 'username'] };

export async function workspaceLogoPlugin(app: FastifyInstance, { config, db }: FoyerContext): Promise<void> {
  const verifier = new AccessTokenVerifier(db, config.urls.auth);
  // x-app-id: the runtime's API client sends it on every call; the workspace comes from the token
  // alone (or, in the legacy mode, from the legacy headers as server/auth/callers.ts reads them).
  const credentialHeaders = ['authorization', 'x-auth-token', 'x-tenant-user-id', 'x-app-id'];
  await app.register(cors, {
    origin: config.urls.ui,
    methods: ['POST'],
    allowedHeaders: ['content-type', ...credentialHeaders],
    maxAge: 600,
  });
  // Same refusals and shape as the configurator's upload (FILE_TOO_LARGE past the body limit).
  installAdminErrors(app);
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/logo',
    {
      bodyLimit: MAX_LOGO_BYTES,
      schema: {
        ...hostedScreensRoute(WORKSPACE_TAG, "Upload the workspace's logo (the raw image bytes, typed by Content-Type)", 'accessToken'),
        response: { 201: WorkspaceLogoAnswer, ...refusals(400, 401, 403, 413, 429) },
      },
      config: handlerCheckedBody(LogoBody, LOGO_TYPES),
    },
    async (request, reply) => {
      const headers = new Headers();
      for (const name of credentialHeaders) {
        const value = request.headers[name];
        if (typeof value === 'string') headers.set(name, value);
      }
      const caller = await resolveCaller(db, verifier, headers);
      if (caller.kind !== 'member') throw new AdminError(401, 'UNAUTHENTICATED', 'Sign in first');
      if (!caller.privileges.has('TENANT_WRITE'))
        throw new AdminError(403, 'FORBIDDEN', 'Only owners and admins change the workspace logo');

      const attempt = { appId: caller.app.id, ip: request.ip, username: caller.tenantId };
      const reservation = await reserveAttempt(db, WORKSPACE_LOGO_UPLOADS.type, attempt, [WORKSPACE_LOGO_UPLOADS]);
      if (reservation === null) {
        throw new AdminError(429, 'TOO_MANY_UPLOADS', `At most ${WORKSPACE_LOGO_UPLOADS.max} logos an hour; try again later`);
      }
      let url: string;
      let logo: ReturnType<typeof checkLogo>;
      let assetId: string;
      let replaced: string | null | undefined;
      try {
        logo = checkLogo(request.headers['content-type'], request.body);
        assetId = await storeLogo(db, caller.app.id, logo);
        url = assetUrl(config.urls.api, caller.app.id, assetId);
        const logoUrl = url;
        replaced = await db.transaction(async (tx) => {
          const [before] = await tx.select({ logo: tenants.logo }).from(tenants).where(eq(tenants.id, caller.tenantId)).for('update');
          await tx.update(tenants).set({ logo: logoUrl }).where(eq(tenants.id, caller.tenantId));
          await emitTenantEvent(tx, caller.app.id, 'TENANT_UPDATED', caller.tenantId);
          return before?.logo;
        });
      } catch (error) {
        await releaseAttempt(db, reservation);
        throw error;
      }
      await confirmAttempt(db, reservation, {
        userId: caller.userId,
        tenantUserId: caller.tenantUserId,
        detail: { tenantId: caller.tenantId, username: caller.tenantId, assetId, contentType: logo.contentType, bytes: logo.bytes.length },
      });
      // The logo it replaced goes, unless the app or another workspace shows it too.
      await removeUnusedAssets(db, config.urls.api, caller.app.id, [replaced]);
      return reply.status(201).send({ logo: url });
    },
  );
}
