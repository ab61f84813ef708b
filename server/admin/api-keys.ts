// An app's API keys in the admin API: listed (name, created, last used; never the key), created with a
// name (the key answered once), revoked. Each write is audited like the admin API's others.
import type { Database } from '../db/client.ts';
import {
  countApiKeys,
  createApiKey,
  listApiKeys,
  MAX_API_KEY_NAME_LENGTH,
  MAX_API_KEYS_PER_APP,
  revokeApiKey,
  type ApiKeySummary,
} from '../apps/api-keys.ts';
import type { AppRow, WriteOrigin } from './caller.ts';
import { AdminError } from './errors.ts';
import { recordAppAudit } from './service.ts';
import { validationFailed } from './validation.ts';
import type { NewApiKeyBody } from '../../common/api/admin.ts';

export async function appApiKeys(db: Database, app: AppRow): Promise<{ apiKeys: ApiKeySummary[] }> {
  return { apiKeys: await listApiKeys(db, app.id) };
}

export async function addApiKey(db: Database, origin: WriteOrigin, app: AppRow, body: NewApiKeyBody) {
  const name = body.name.trim();
  if (name === '') throw validationFailed([{ path: '/name', code: 'required', params: {}, message: 'must name the key' }]);
  if ([...name].length > MAX_API_KEY_NAME_LENGTH) {
    throw validationFailed([
      {
        path: '/name',
        code: 'maxLength',
        params: { limit: MAX_API_KEY_NAME_LENGTH },
        message: `must be at most ${MAX_API_KEY_NAME_LENGTH} characters`,
      },
    ]);
  }
  if ((await countApiKeys(db, app.id)) >= MAX_API_KEYS_PER_APP) {
    throw new AdminError(409, 'TOO_MANY_API_KEYS', `An app has at most ${MAX_API_KEYS_PER_APP} API keys; revoke one first`);
  }
  const { key, ...apiKey } = await createApiKey(db, app.id, name);
  await recordAppAudit(db, origin, 'app.api_key_created', app.id, { apiKeyId: apiKey.id, name });
  return { apiKey, key };
}

export async function removeApiKey(db: Database, origin: WriteOrigin, app: AppRow, keyId: string): Promise<void> {
  const revoked = await revokeApiKey(db, app.id, keyId);
  if (!revoked) throw new AdminError(404, 'UNKNOWN_API_KEY', 'This app has no such API key');
  await recordAppAudit(db, origin, 'app.api_key_revoked', app.id, { apiKeyId: revoked.id, name: revoked.name });
}
