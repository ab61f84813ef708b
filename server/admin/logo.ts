// Logo uploads: raw bytes of a PNG, JPEG, GIF or WebP image, at most 256 KiB, whose first bytes must
// be what the declared type says. SVG is refused (it can carry script); the stored file is served
// from the API host with its own content type, nosniff and a CSP that forbids everything.
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql, type AnyColumn } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { appAssets, appDrafts, apps, appVersions, tenants } from '../db/schema.ts';
import { AdminError } from './errors.ts';
import { assetsBaseOf, LOGO_MAX_BYTES } from '../../common/logos.ts';

export const MAX_LOGO_BYTES = LOGO_MAX_BYTES;

const signatures: Record<string, (bytes: Buffer) => boolean> = {
  'image/png': (bytes) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (bytes) => bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])),
  'image/gif': (bytes) => ['GIF87a', 'GIF89a'].includes(bytes.subarray(0, 6).toString('latin1')),
  'image/webp': (bytes) => bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP',
};

export const LOGO_TYPES = Object.keys(signatures);

const unsupported = (message: string) => new AdminError(400, 'UNSUPPORTED_IMAGE', message);

/** The declared type without parameters, lower-cased. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Checks the upload and answers the type it is stored under. */
export function checkLogo(contentType: string | undefined, body: unknown): { contentType: string; bytes: Buffer } {
  const type = mediaTypeOf(contentType);
  const matches = signatures[type];
  if (!matches) throw unsupported(`Upload a PNG, JPEG, GIF or WebP image (${LOGO_TYPES.join(', ')}); ${type || 'no type'} is not accepted`);
  if (!Buffer.isBuffer(body) || body.length === 0) throw unsupported('The upload is empty');
  if (body.length > MAX_LOGO_BYTES) throw new AdminError(413, 'FILE_TOO_LARGE', 'The logo is larger than 256 KiB');
  if (!matches(body)) throw unsupported(`The file is not a ${type.slice('image/'.length).toUpperCase()} image`);
  return { contentType: type, bytes: body };
}

export async function storeLogo(db: Database, appId: string, logo: { contentType: string; bytes: Buffer }): Promise<string> {
  const id = randomUUID();
  await db.insert(appAssets).values({ id, appId, contentType: logo.contentType, bytes: logo.bytes });
  return id;
}

/** Where an uploaded asset of `appId` is served (server/branding/plugin.ts). */
export function assetUrl(apiUrl: string, appId: string, assetId: string): string {
  return `${assetsBaseOf(apiUrl, appId)}${assetId}`;
}

const ASSET_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The uploaded asset's id in `column`'s text (a logo, or a config document's logo and CSS). */
const names = (column: AnyColumn) => sql`strpos(${column}::text, ${appAssets.id}) > 0`;

/**
 * Deletes the uploads of `appId` among `urls` (logos just replaced) that nothing shows any more:
 * neither the app's live settings, its draft or any of its versions (logo or custom CSS), which a
 * restore brings back, nor any workspace's logo. Uploads are kept otherwise, one row each.
 */
export async function removeUnusedAssets(
  db: Database,
  apiUrl: string,
  appId: string,
  urls: readonly (string | null | undefined)[],
): Promise<void> {
  const base = assetsBaseOf(apiUrl, appId);
  const ids = urls.flatMap((url) => (url?.startsWith(base) && ASSET_ID.test(url.slice(base.length)) ? [url.slice(base.length)] : []));
  if (ids.length === 0) return;
  await db
    .delete(appAssets)
    .where(
      and(
        eq(appAssets.appId, appId),
        inArray(appAssets.id, ids),
        sql`not exists (select 1 from ${apps} where ${apps.id} = ${appId} and ${names(apps.settings)})`,
        sql`not exists (select 1 from ${appDrafts} where ${appDrafts.appId} = ${appId} and ${names(appDrafts.config)})`,
        sql`not exists (select 1 from ${appVersions} where ${appVersions.appId} = ${appId} and ${names(appVersions.config)})`,
        sql`not exists (select 1 from ${tenants} where ${tenants.appId} = ${appId} and ${names(tenants.logo)})`,
      ),
    );
}
