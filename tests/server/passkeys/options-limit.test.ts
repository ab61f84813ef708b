// Passkey sign-in options store a challenge per call: one address gets a capped number of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { auditEvents, loginSessions } from '../../../server/db/schema.ts';
import { PASSKEY_OPTIONS_LIMITS } from '../../../server/auth/passkeys/routes.ts';

let foyer: TestFoyer;

beforeAll(async () => {
  foyer = await startFoyer();
});

afterAll(async () => {
  await foyer?.close();
});

const askForOptions = () => fetch(`${foyer.urls.auth}/auth/passkeys/authentication-options`, { headers: { 'x-app-id': foyer.demo.appId } });

describe('passkey sign-in options', () => {
  it('answers 429 once one address has asked the limit within the window, storing nothing more', async () => {
    expect((await askForOptions()).status).toBe(200);
    const [limit] = PASSKEY_OPTIONS_LIMITS;
    // The earlier requests of the window, as the limiter records them.
    await foyer.db.insert(auditEvents).values(
      Array.from({ length: limit!.max - 1 }, () => ({
        type: 'passkey.options_requested',
        appId: foyer.demo.appId,
        ip: '127.0.0.1',
        detail: { username: '' },
      })),
    );
    const [sessionsBefore] = await foyer.db.select({ n: count() }).from(loginSessions);

    const refused = await askForOptions();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ statusCode: 429, error: 'TOO_MANY_REQUESTS' });

    const [sessionsAfter] = await foyer.db.select({ n: count() }).from(loginSessions);
    expect(sessionsAfter!.n).toBe(sessionsBefore!.n);
    const [recorded] = await foyer.db
      .select({ n: count() })
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'passkey.options_requested'), eq(auditEvents.appId, foyer.demo.appId)));
    expect(recorded!.n).toBe(limit!.max);
  });
});
