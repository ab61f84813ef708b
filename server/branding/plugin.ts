// Branding storage on the API host: each app's published stylesheet (design tokens, then its custom
// CSS), translation overrides and uploaded logos. Stylesheet and translations carry a strong ETag
// over the body and `cache-control: no-cache`, so browsers revalidate on every load and a publish
// shows at once; logos never change under their id, so they are cached for good.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import type { FoyerContext } from '../context.ts';
import { appAssets, apps } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { brandingStylesheet } from '../../common/branding-css.ts';

function strongEtag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url')}"`;
}

/** Answers `body` with its ETag, or 304 when the browser holds it already. */
function sendRevalidated(request: FastifyRequest, reply: FastifyReply, type: string, body: string) {
  const etag = strongEtag(body);
  reply.header('etag', etag).header('cache-control', 'no-cache');
  const held = request.headers['if-none-match'];
  if (held && held.split(',').some((tag) => tag.trim() === etag)) return reply.status(304).send();
  return reply.type(type).send(body);
}

const ASSET_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function brandingPlugin(app: FastifyInstance, { db }: FoyerContext): Promise<void> {
  // Public files any page may read, missing ones included, so a 404 reads as "none" and not a CORS failure.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('access-control-allow-origin', '*');
    return payload;
  });

  const settingsOf = async (appId: string) => {
    const [row] = appId.length <= 100 ? await db.select({ settings: apps.settings }).from(apps).where(eq(apps.id, appId)).limit(1) : [];
    if (!row) throw notFound('Unknown app id', 'UNKNOWN_APP');
    return row.settings;
  };

  app.get<{ Params: { appId: string } }>('/:appId/custom.css', async (request, reply) =>
    sendRevalidated(request, reply, 'text/css; charset=utf-8', brandingStylesheet((await settingsOf(request.params.appId)).branding)),
  );

  app.get<{ Params: { appId: string } }>('/:appId/translations.json', async (request, reply) => {
    const translations = (await settingsOf(request.params.appId)).translations ?? {};
    return sendRevalidated(request, reply, 'application/json; charset=utf-8', JSON.stringify(translations));
  });

  app.get<{ Params: { appId: string; assetId: string } }>('/:appId/assets/:assetId', async (request, reply) => {
    const { appId, assetId } = request.params;
    const [asset] = !ASSET_ID.test(assetId)
      ? []
      : await db
          .select({ contentType: appAssets.contentType, bytes: appAssets.bytes })
          .from(appAssets)
          .where(and(eq(appAssets.id, assetId), eq(appAssets.appId, appId)))
          .limit(1);
    if (!asset) throw notFound('No such file', 'UNKNOWN_ASSET');
    return reply
      .headers({
        'content-type': asset.contentType,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'",
        // The hosted UI shows logos from this origin.
        'cross-origin-resource-policy': 'cross-origin',
        'cache-control': 'public, max-age=31536000, immutable',
      })
      .send(asset.bytes);
  });
}
