// Several instances starting at once on one empty database: they agree on one signing key, and on
// PostgreSQL they migrate one after the other instead of racing.
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { openTestDatabase, POSTGRES_ENV } from '../../server/testing.ts';
import { postgresHandle } from '../../server/db/client.ts';
import { signingKeys } from '../../server/db/schema.ts';
import { loadSigningKeys } from '../../server/auth/signing-keys.ts';
import { loadConfig } from '../../server/config.ts';

const CONFIG = loadConfig({});

describe('first start', () => {
  it('creates one signing key when eight instances load the keys at once', async () => {
    const database = await openTestDatabase();
    try {
      await database.db.delete(signingKeys);
      const loaded = await Promise.all(Array.from({ length: 8 }, () => loadSigningKeys(database.db, CONFIG)));
      expect(await database.db.select().from(signingKeys)).toHaveLength(1);
      for (const keys of loaded) expect(keys.publicJwks).toEqual(loaded[0]!.publicJwks);
    } finally {
      await database.close();
    }
  });

  it.runIf(process.env[POSTGRES_ENV])('migrates an empty PostgreSQL database from four instances at once', async () => {
    const serverUrl = process.env[POSTGRES_ENV]!;
    const name = `foyer_empty_${randomUUID().replace(/-/g, '')}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const instances = Array.from({ length: 4 }, () => postgresHandle(url.toString()));
    try {
      await Promise.all(instances.map((instance) => instance.migrate()));
      const loaded = await Promise.all(instances.map((instance) => loadSigningKeys(instance.db, CONFIG)));
      for (const keys of loaded) expect(keys.publicJwks).toEqual(loaded[0]!.publicJwks);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
