// A refresh grant reads only the version of its app's row (its xmin) and uses the client metadata
// kept from an earlier read while that version stands (server/auth/oidc/adapter.ts ClientAdapter).
// Hostile changes made straight in the database, by no code path of this process (as another
// instance on the same database would), must apply to the very next refresh on every instance:
// a shorter token lifetime, an app turned confidential, a rotated secret, a deleted app.
import { eq, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestFoyer } from '../../../server/testing.ts';
import { createFoyer, type Foyer } from '../../../server/app.ts';
import { apps } from '../../../server/db/schema.ts';
import { rotateClientSecret } from '../../../server/apps/client-secret.ts';
import { startRecordedFoyer, type RecordedFoyer } from '../support/statements.ts';
import { refreshTokenOf } from './sign-in.ts';
import { createMember } from '../password/helpers.ts';

let foyer: TestFoyer;
let statements: string[];
let recording: RecordedFoyer['recording'];
/** A second instance on the same database, with its own provider and its own kept metadata. */
let second: Foyer;

beforeAll(async () => {
  ({ foyer, statements, recording } = await startRecordedFoyer());
  second = await createFoyer({ config: foyer.config, db: foyer.db, appId: foyer.demo.appId });
});
afterAll(async () => {
  await second?.close();
  await foyer?.close();
});

/** POST /token with a refresh_token grant to `instance`, with the app's secret when given. */
async function refresh(instance: Foyer, refreshToken: string, secret?: string) {
  const response: LightMyRequestResponse = await recording(() =>
    instance.auth.inject({
      method: 'POST',
      url: '/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(secret ? { authorization: `Basic ${Buffer.from(`${foyer.demo.appId}:${secret}`).toString('base64')}` } : {}),
      },
      payload: new URLSearchParams({ grant_type: 'refresh_token', client_id: foyer.demo.appId, refresh_token: refreshToken }).toString(),
    }),
  );
  return { status: response.statusCode, body: response.json() as Record<string, string> };
}

const appReads = () => statements.filter((statement) => statement.startsWith('select') && statement.includes('"redirect_uris"'));

/** The lifetime the access token of a successful answer was given. */
function lifetimeOf(answer: { body: Record<string, string> }): number {
  const claims = decodeJwt(answer.body.access_token!);
  return claims.exp! - claims.iat!;
}

describe("a refresh grant's app", () => {
  // Last: it deletes the demo app.
  it('is read whole only when its row changed, on each instance, and every change applies to the next refresh', async () => {
    const member = await createMember(foyer, { workspaces: ['Acme'] });
    let token = await refreshTokenOf(foyer, member, 'Acme');
    const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));

    // The sign-in read the app whole: its refreshes read only its version.
    let answer = await refresh(foyer.foyer, token);
    expect(answer.status).toBe(200);
    expect(appReads()).toHaveLength(0);
    token = answer.body.refresh_token!;
    // The second instance has not read the app yet: its first refresh does, the next one does not.
    answer = await refresh(second, token);
    expect(answer.status).toBe(200);
    expect(appReads()).toHaveLength(1);
    token = answer.body.refresh_token!;
    answer = await refresh(second, token);
    expect(appReads()).toHaveLength(0);
    token = answer.body.refresh_token!;

    // A shorter access token lifetime, written by no code of either instance.
    await foyer.db.execute(sql`update apps set access_token_ttl = 120 where id = ${foyer.demo.appId}`);
    for (const instance of [foyer.foyer, second]) {
      answer = await refresh(instance, token);
      expect(answer.status).toBe(200);
      expect(appReads()).toHaveLength(1);
      expect(lifetimeOf(answer)).toBe(120);
      token = answer.body.refresh_token!;
    }

    // Turned confidential with a secret: a refresh without it is refused on both instances, with it answered.
    await foyer.db
      .update(apps)
      .set({ settings: { ...app!.settings, clientType: 'confidential', tokenEndpointAuthMethod: 'client_secret_basic' } })
      .where(eq(apps.id, foyer.demo.appId));
    const secret = await rotateClientSecret(foyer.db, foyer.config.secret, foyer.demo.appId);
    for (const instance of [foyer.foyer, second]) {
      answer = await refresh(instance, token);
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('invalid_client');
    }
    answer = await refresh(foyer.foyer, token, secret);
    expect(answer.status).toBe(200);
    token = answer.body.refresh_token!;

    // A rotated secret: the old one stops working with the next request, on the instance that kept it.
    const rotated = await rotateClientSecret(foyer.db, foyer.config.secret, foyer.demo.appId);
    answer = await refresh(foyer.foyer, token, secret);
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('invalid_client');
    answer = await refresh(second, token, rotated);
    expect(answer.status).toBe(200);
    token = answer.body.refresh_token!;

    // Public again, then gone: the kept metadata of a deleted app answers nothing.
    await foyer.db.update(apps).set({ settings: app!.settings, clientSecretSealed: null }).where(eq(apps.id, foyer.demo.appId));
    answer = await refresh(second, token);
    expect(answer.status).toBe(200);
    token = answer.body.refresh_token!;
    await foyer.db.delete(apps).where(eq(apps.id, foyer.demo.appId));
    for (const instance of [foyer.foyer, second]) {
      answer = await refresh(instance, token);
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('invalid_client');
    }
  });
});
