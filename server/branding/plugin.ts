// Branding storage on the API host: each app's custom stylesheet and translation overrides.
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import type { FoyerContext } from '../context.ts';
import { apps } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import type { AppSettings } from '../apps/settings.ts';

function brandingCss(settings: AppSettings): string | undefined {
  const colors = settings.branding?.colors ?? {};
  const tokens = Object.entries(colors)
    .filter(([, value]) => value)
    .map(([name, value]) => `  --foyer-color-${name}: ${value};`);
  const custom = settings.branding?.customCss ?? '';
  if (tokens.length === 0 && !custom) return undefined;
  return `${tokens.length ? `:root {\n${tokens.join('\n')}\n}\n` : ''}${custom}`;
}

export async function brandingPlugin(app: FastifyInstance, { db }: FoyerContext): Promise<void> {
  // Public files any page may read, missing ones included, so a 404 reads as "none" and not a CORS failure.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('access-control-allow-origin', '*');
    return payload;
  });

  const settingsOf = async (appId: string) => {
    const [row] = await db.select({ settings: apps.settings }).from(apps).where(eq(apps.id, appId)).limit(1);
    if (!row) throw notFound('Unknown app id', 'UNKNOWN_APP');
    return row.settings;
  };

  app.get<{ Params: { appId: string } }>('/:appId/custom.css', async (request, reply) => {
    const css = brandingCss(await settingsOf(request.params.appId));
    if (css === undefined) throw notFound('This app has no custom stylesheet');
    return reply.type('text/css; charset=utf-8').send(css);
  });

  app.get<{ Params: { appId: string } }>('/:appId/translations.json', async (request) => {
    const translations = (await settingsOf(request.params.appId)).translations;
    if (!translations || Object.keys(translations).length === 0) throw notFound('This app has no translations');
    return translations;
  });
}
