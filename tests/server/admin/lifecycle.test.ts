// The admin API's happy path with real console tokens: list apps, create an app (id and key once),
// API keys, drafts and their changes, publishing with a note, what the public endpoints then serve,
// versions and restoring, provider secrets that never come back, logos, a first workspace, and an
// app switching password sign-in off. Every write leaves its audit event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import type { TestFoyer } from '../../../server/testing.ts';
import { startFoyer } from '../../../server/testing.ts';
import {
  apiKeys,
  appDrafts,
  appOwners,
  apps,
  appVersions,
  auditEvents,
  outbox,
  tenants,
  tenantUsers,
  users,
} from '../../../server/db/schema.ts';
import { openProviderSecret } from '../../../server/apps/provider-secrets.ts';
import type { AppConfig } from '../../../common/app-config.ts';
import { postGraphQL } from '../support/graphql.ts';
import { admin, consoleOwnerToken, CONSOLE_OWNER_EMAIL, CONSOLE_WORKSPACE } from '../support/console.ts';
import { Browser } from '../oidc/browser.ts';
import { insertApp } from '../support/apps.ts';
import { authorizationRequest, relyingParty } from '../oidc/sign-in.ts';
import { SUPPORTED_LOCALES } from '../../../common/locales.ts';

let foyer: TestFoyer;
let token: string;

beforeAll(async () => {
  foyer = await startFoyer();
  token = await consoleOwnerToken(foyer);
});

afterAll(async () => {
  await foyer?.close();
});

interface AppAnswer {
  app: { id: string; name: string; publishedVersion: number; hasDraft: boolean; createdAt: string };
  live: AppConfig;
  draft: null | { config: AppConfig; baseVersion: number; updatedAt: string; updatedBy: string };
  apiKeyCreatedAt: string | null;
}

async function auditOf(appId: string, type: string) {
  return foyer.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.appId, appId), eq(auditEvents.type, type)))
    .orderBy(desc(auditEvents.id));
}

async function anonymousApp(appId: string) {
  const answer = await postGraphQL<{ getAppAnonymous: Record<string, unknown> }>(
    foyer.urls.api,
    { query: '{ getAppAnonymous { name googleSsoEnabled magicLinkEnabled } }' },
    { 'x-app-id': appId },
  );
  return answer.body.data!.getAppAnonymous;
}

async function publicFile(appId: string, file: string) {
  const response = await fetch(`${foyer.urls.api}/${appId}/${file}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-cache');
  return { etag: response.headers.get('etag')!, text: await response.text() };
}

describe('apps of the signed-in owner', () => {
  it('lists the apps the console workspace owns, the demo app among them', async () => {
    const answer = await admin<{ apps: AppAnswer['app'][] }>(foyer, 'GET', '/apps', { token });
    expect(answer.status).toBe(200);
    expect(answer.body.apps).toContainEqual(
      expect.objectContaining({ id: foyer.demo.appId, name: 'Demo app', publishedVersion: 1, hasDraft: false }),
    );
  });

  it('answers the browser preflight from the hosted UI only', async () => {
    const preflight = (origin: string) =>
      fetch(`${foyer.urls.api}/admin/apps`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,content-type' },
      });
    const fromUi = await preflight(foyer.urls.ui);
    expect(fromUi.headers.get('access-control-allow-origin')).toBe(foyer.urls.ui);
    expect(fromUi.headers.get('access-control-allow-headers')?.split(/,\s*/)).toEqual(['authorization', 'content-type']);
    const fromElsewhere = await preflight('https://evil.example');
    expect(fromElsewhere.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
    // Refusals are readable by the configurator too.
    const refused = await fetch(`${foyer.urls.api}/admin/apps`, { headers: { origin: foyer.urls.ui } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(foyer.urls.ui);
    expect(await refused.json()).toMatchObject({ statusCode: 401, error: 'UNAUTHENTICATED' });
  });
});

describe('an app from creation to a restored version', () => {
  let appId: string;
  let apiKey: string;

  it('creates an app live as version 1, owned by the workspace, with an API key shown once', async () => {
    const created = await admin<{ app: AppAnswer['app']; apiKey: string }>(foyer, 'POST', '/apps', { token, body: { name: '  Shop  ' } });
    expect(created.status).toBe(201);
    expect(created.body.app).toMatchObject({ name: 'Shop', publishedVersion: 1, hasDraft: false });
    expect(created.body.apiKey).toMatch(/^fyk_[\w-]{43}$/);
    appId = created.body.app.id;
    apiKey = created.body.apiKey;

    const [row] = await foyer.db.select().from(apps).where(eq(apps.id, appId));
    expect(row).toMatchObject({
      name: 'Shop',
      redirectUris: [`${foyer.urls.ui}/auth/oauth-callback`],
      postLogoutRedirectUris: [`${foyer.urls.ui}/auth/login`],
      accessTokenTtl: 3600,
      refreshTokenTtl: 604800,
      publishedVersion: 1,
    });
    // No social provider: one switches on together with its credentials.
    expect(row!.settings).toEqual({
      passwordEnabled: true,
      magicLinkEnabled: false,
      passkeysEnabled: false,
      mfaEnabled: false,
      tenantSelfSignup: true,
      onboardingFlow: 'B2B',
      defaultRole: 'VIEWER',
    });
    const [owner] = await foyer.db
      .select({ name: tenants.name })
      .from(appOwners)
      .innerJoin(tenants, eq(tenants.id, appOwners.tenantId))
      .where(eq(appOwners.appId, appId));
    expect(owner!.name).toBe(CONSOLE_WORKSPACE);
    const versions = await foyer.db.select().from(appVersions).where(eq(appVersions.appId, appId));
    expect(versions).toMatchObject([{ version: 1, note: 'Created', author: CONSOLE_OWNER_EMAIL }]);
    const keys = await foyer.db.select().from(apiKeys).where(eq(apiKeys.appId, appId));
    expect(keys).toHaveLength(1);
    expect(keys[0]!.keyHash).not.toContain(apiKey.slice(4));
    expect((await auditOf(appId, 'app.created'))[0]!.detail).toMatchObject({ actor: CONSOLE_OWNER_EMAIL, name: 'Shop' });
    // Usable at once: its login URL leads through the authorization server to the hosted login.
    const pending = await authorizationRequest(await relyingParty(foyer, appId), `${foyer.urls.ui}/auth/oauth-callback`);
    const login = await new Browser().navigate(pending.url, (url) => url.origin === foyer.urls.ui);
    expect(new URL(login.url).pathname).toBe('/auth/login');
  });

  it('never shows the key again; the key reads the app and lists only it', async () => {
    const read = await admin<AppAnswer>(foyer, 'GET', `/apps/${appId}`, { token });
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain(apiKey);
    expect(read.body.apiKeyCreatedAt).toEqual(expect.any(String));
    expect(read.body.draft).toBeNull();
    expect(read.body.live).toMatchObject({ name: 'Shop', magicLinkEnabled: false, redirectUris: [`${foyer.urls.ui}/auth/oauth-callback`] });
    expect(read.body.live.googleSsoEnabled).toBeUndefined();

    const byKey = await admin<AppAnswer>(foyer, 'GET', `/apps/${appId}`, { apiKey });
    expect(byKey.status).toBe(200);
    expect(byKey.body.live).toEqual(read.body.live);
    const listed = await admin<{ apps: { id: string }[] }>(foyer, 'GET', '/apps', { apiKey });
    expect(listed.body.apps.map((app) => app.id)).toEqual([appId]);
  });

  it('regenerates the key: the old one stops working', async () => {
    const regenerated = await admin<{ apiKey: string }>(foyer, 'POST', `/apps/${appId}/api-key`, { token });
    expect(regenerated.status).toBe(201);
    expect(regenerated.body.apiKey).not.toBe(apiKey);
    expect((await admin(foyer, 'GET', `/apps/${appId}`, { apiKey })).status).toBe(401);
    apiKey = regenerated.body.apiKey;
    expect((await admin(foyer, 'GET', `/apps/${appId}`, { apiKey })).status).toBe(200);
    expect(await foyer.db.select().from(apiKeys).where(eq(apiKeys.appId, appId))).toHaveLength(1);
    expect((await auditOf(appId, 'app.api_key_regenerated'))[0]!.detail).toEqual({ actor: CONSOLE_OWNER_EMAIL });
  });

  it('saves a draft that stays unpublished; a provider secret is sealed and never answered', async () => {
    const live = (await admin<AppAnswer>(foyer, 'GET', `/apps/${appId}`, { token })).body.live;
    const cssBefore = await publicFile(appId, 'custom.css');
    const config: AppConfig = {
      ...live,
      branding: { colors: { primary: '#1f42dd' } },
      googleSsoEnabled: true,
      socialProviders: { google: { clientId: 'google-client', clientSecret: 'google-s3cret-value' } },
    };
    const saved = await admin<{ draft: NonNullable<AppAnswer['draft']> }>(foyer, 'PUT', `/apps/${appId}/draft`, {
      token,
      body: { config },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.draft).toMatchObject({ baseVersion: 1, updatedBy: CONSOLE_OWNER_EMAIL });
    expect(saved.body.draft.config.socialProviders).toEqual({ google: { clientId: 'google-client', hasClientSecret: true } });
    expect(JSON.stringify(saved.body)).not.toContain('google-s3cret-value');

    const [draft] = await foyer.db.select().from(appDrafts).where(eq(appDrafts.appId, appId));
    expect(JSON.stringify(draft!.config)).not.toContain('google-s3cret-value');
    const sealed = (draft!.config as { socialProviders: { google: { clientSecretSealed: string } } }).socialProviders.google
      .clientSecretSealed;
    expect(openProviderSecret(foyer.config, appId, 'google', sealed)).toBe('google-s3cret-value');
    expect(() => openProviderSecret(foyer.config, foyer.demo.appId, 'google', sealed)).toThrow();

    // Nothing is live yet.
    expect((await publicFile(appId, 'custom.css')).etag).toBe(cssBefore.etag);
    const read = await admin<AppAnswer>(foyer, 'GET', `/apps/${appId}`, { token });
    expect(read.body.app.hasDraft).toBe(true);
    expect(read.body.live.branding).toBeUndefined();
    expect(JSON.stringify(read.body)).not.toContain('google-s3cret-value');
    expect((await auditOf(appId, 'app.draft_saved'))[0]!.detail).toMatchObject({ actor: CONSOLE_OWNER_EMAIL });
  });

  it('publishes the draft with a note as version 2 by the owner, and it is served at once', async () => {
    const published = await admin<{ version: Record<string, unknown> }>(foyer, 'POST', `/apps/${appId}/publish`, {
      token,
      body: { note: 'Brand colour' },
    });
    expect(published.status).toBe(201);
    expect(published.body.version).toMatchObject({ version: 2, author: CONSOLE_OWNER_EMAIL, note: 'Brand colour', live: true });
    expect(await foyer.db.select().from(appDrafts).where(eq(appDrafts.appId, appId))).toEqual([]);
    const [row] = await foyer.db.select().from(apps).where(eq(apps.id, appId));
    expect(row!.publishedVersion).toBe(2);
    expect(row!.settings.socialProviders?.google?.clientSecretSealed).toEqual(expect.any(String));
    expect((await publicFile(appId, 'custom.css')).text).toContain('--foyer-color-primary: #1f42dd;');
    expect((await auditOf(appId, 'app.published'))[0]!.detail).toEqual({ actor: CONSOLE_OWNER_EMAIL, version: 2, note: 'Brand colour' });
  });

  it('lists what a new draft changes; a secret left out is kept', async () => {
    const live = (await admin<AppAnswer>(foyer, 'GET', `/apps/${appId}`, { token })).body.live;
    expect(live.socialProviders).toEqual({ google: { clientId: 'google-client', hasClientSecret: true } });
    const config: AppConfig = {
      ...live,
      googleSsoEnabled: false,
      magicLinkEnabled: true,
      branding: { colors: { primary: '#0a7' } },
      translations: { sv: { login: { title: 'Logga in på Shop', email: 'E-post' }, signup: { title: 'Skapa konto' } } },
      customSignupFields: [{ label: 'company', type: 'text', userLabel: 'Company' }],
      languages: ['sv', 'en'],
      defaultLanguage: 'sv',
    };
    // The answer's hasClientSecret is ignored on the way back in, and the stored secret stays.
    const saved = await admin<{ draft: NonNullable<AppAnswer['draft']> }>(foyer, 'PUT', `/apps/${appId}/draft`, {
      apiKey,
      body: { config },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.draft.updatedBy).toBe('API key');
    expect(saved.body.draft.config.socialProviders).toEqual({ google: { clientId: 'google-client', hasClientSecret: true } });
    expect((await auditOf(appId, 'app.draft_saved'))[0]!.detail).toMatchObject({ actor: 'api-key' });

    const changes = await admin<{ changes: unknown[] }>(foyer, 'GET', `/apps/${appId}/changes`, { token });
    expect(changes.status).toBe(200);
    expect(changes.body.changes).toEqual([
      { kind: 'enabled', path: 'magicLinkEnabled' },
      { kind: 'disabled', path: 'googleSsoEnabled' },
      { kind: 'changed', path: 'branding.colors.primary', from: '#1f42dd', to: '#0a7' },
      { kind: 'changed', path: 'languages', from: SUPPORTED_LOCALES.join(', '), to: 'en, sv' },
      { kind: 'changed', path: 'defaultLanguage', from: 'en', to: 'sv' },
      { kind: 'list', path: 'customSignupFields', added: 1, removed: 0, changed: 0 },
      { kind: 'translations', language: 'sv', count: 3 },
    ]);
  });

  it('publishes it: getAppAnonymous, custom.css and translations.json serve the new config at once', async () => {
    const css = await publicFile(appId, 'custom.css');
    const texts = await publicFile(appId, 'translations.json');
    expect(await anonymousApp(appId)).toEqual({ name: 'Shop', googleSsoEnabled: true, magicLinkEnabled: false });

    const published = await admin<{ version: Record<string, unknown> }>(foyer, 'POST', `/apps/${appId}/publish`, {
      apiKey,
      body: { note: 'Swedish, magic link' },
    });
    expect(published.body.version).toMatchObject({ version: 3, author: 'API key', live: true });

    expect(await anonymousApp(appId)).toEqual({ name: 'Shop', googleSsoEnabled: false, magicLinkEnabled: true });
    const cssAfter = await publicFile(appId, 'custom.css');
    expect(cssAfter.etag).not.toBe(css.etag);
    expect(cssAfter.text).toContain('--foyer-color-primary: #0a7;');
    const textsAfter = await publicFile(appId, 'translations.json');
    expect(textsAfter.etag).not.toBe(texts.etag);
    expect(JSON.parse(textsAfter.text)).toEqual({
      sv: { login: { title: 'Logga in på Shop', email: 'E-post' }, signup: { title: 'Skapa konto' } },
    });
    const revalidated = await fetch(`${foyer.urls.api}/${appId}/custom.css`, { headers: { 'if-none-match': cssAfter.etag } });
    expect(revalidated.status).toBe(304);
    expect((await admin<{ changes: unknown[] }>(foyer, 'GET', `/apps/${appId}/changes`, { token })).body.changes).toEqual([]);
  });

  it('lists versions newest first and reads one', async () => {
    const versions = await admin<{ versions: Record<string, unknown>[] }>(foyer, 'GET', `/apps/${appId}/versions`, { token });
    expect(versions.body.versions.map((version) => [version.version, version.live, version.author, version.note])).toEqual([
      [3, true, 'API key', 'Swedish, magic link'],
      [2, false, CONSOLE_OWNER_EMAIL, 'Brand colour'],
      [1, false, CONSOLE_OWNER_EMAIL, 'Created'],
    ]);
    const second = await admin<{ version: Record<string, unknown>; config: AppConfig }>(foyer, 'GET', `/apps/${appId}/versions/2`, {
      token,
    });
    expect(second.body.version).toMatchObject({ version: 2, live: false });
    expect(second.body.config).toMatchObject({ googleSsoEnabled: true, branding: { colors: { primary: '#1f42dd' } } });
    expect(second.body.config.socialProviders).toEqual({ google: { clientId: 'google-client', hasClientSecret: true } });
    for (const missing of ['4', '0', 'abc', '1.5']) {
      const answer = await admin(foyer, 'GET', `/apps/${appId}/versions/${missing}`, { token });
      expect(answer.status).toBe(404);
      expect(answer.body.error).toBe('UNKNOWN_VERSION');
    }
  });

  it('restores version 2 as the draft, and publishing it reverts what is live', async () => {
    const restored = await admin<{ draft: NonNullable<AppAnswer['draft']> }>(foyer, 'POST', `/apps/${appId}/versions/2/restore`, { token });
    expect(restored.status).toBe(200);
    const second = await admin<{ config: AppConfig }>(foyer, 'GET', `/apps/${appId}/versions/2`, { token });
    expect(restored.body.draft.config).toEqual(second.body.config);
    expect(restored.body.draft.baseVersion).toBe(3);
    // Restoring publishes nothing.
    expect(await anonymousApp(appId)).toMatchObject({ googleSsoEnabled: false });
    expect((await auditOf(appId, 'app.version_restored'))[0]!.detail).toEqual({ actor: CONSOLE_OWNER_EMAIL, version: 2 });

    const published = await admin<{ version: Record<string, unknown> }>(foyer, 'POST', `/apps/${appId}/publish`, { token, body: {} });
    expect(published.body.version).toMatchObject({ version: 4, note: null, live: true });
    expect(await anonymousApp(appId)).toEqual({ name: 'Shop', googleSsoEnabled: true, magicLinkEnabled: false });
    expect((await publicFile(appId, 'custom.css')).text).toContain('--foyer-color-primary: #1f42dd;');
    expect(JSON.parse((await publicFile(appId, 'translations.json')).text)).toEqual({});
    const [row] = await foyer.db.select().from(apps).where(eq(apps.id, appId));
    expect(openProviderSecret(foyer.config, appId, 'google', row!.settings.socialProviders!.google!.clientSecretSealed!)).toBe(
      'google-s3cret-value',
    );
  });

  it('discards a draft; publishing without one is refused', async () => {
    const live = (await admin<AppAnswer>(foyer, 'GET', `/apps/${appId}`, { token })).body.live;
    await admin(foyer, 'PUT', `/apps/${appId}/draft`, { token, body: { config: { ...live, name: 'Shop 2' } } });
    // An empty clientSecret removes the stored one.
    const cleared = await admin<{ draft: NonNullable<AppAnswer['draft']> }>(foyer, 'PUT', `/apps/${appId}/draft`, {
      token,
      body: { config: { ...live, socialProviders: { google: { clientId: 'google-client', clientSecret: '' } } } },
    });
    expect(cleared.body.draft.config.socialProviders).toEqual({ google: { clientId: 'google-client', hasClientSecret: false } });
    expect((await admin<{ changes: unknown[] }>(foyer, 'GET', `/apps/${appId}/changes`, { token })).body.changes).toEqual([
      { kind: 'secret', path: 'socialProviders.google.clientSecret' },
    ]);
    const discarded = await admin(foyer, 'DELETE', `/apps/${appId}/draft`, { token });
    expect(discarded.status).toBe(204);
    expect((await admin<AppAnswer>(foyer, 'GET', `/apps/${appId}`, { token })).body.draft).toBeNull();
    expect(await auditOf(appId, 'app.draft_discarded')).toHaveLength(1);
    const refused = await admin(foyer, 'POST', `/apps/${appId}/publish`, { token, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ statusCode: 409, error: 'NO_DRAFT', message: 'There is no draft to publish' });
    expect((await foyer.db.select().from(apps).where(eq(apps.id, appId)))[0]!.publishedVersion).toBe(4);
  });

  it('refuses a publish of changes reviewed before someone else edited or published, and takes it once reviewed again', async () => {
    type Changes = { changes: unknown[]; revision: string };
    const live = (await admin<AppAnswer>(foyer, 'GET', `/apps/${appId}`, { token })).body.live;
    await admin(foyer, 'PUT', `/apps/${appId}/draft`, { token, body: { config: { ...live, name: 'Shop reviewed' } } });
    const reviewed = (await admin<Changes>(foyer, 'GET', `/apps/${appId}/changes`, { token })).body;

    // Another owner (here the API key) edits the draft after the review: the reviewed publish is refused.
    await admin(foyer, 'PUT', `/apps/${appId}/draft`, { apiKey, body: { config: { ...live, name: 'Shop unseen' } } });
    const stale = await admin(foyer, 'POST', `/apps/${appId}/publish`, { token, body: { revision: reviewed.revision } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'CHANGED_SINCE_REVIEW' });
    expect((await foyer.db.select().from(apps).where(eq(apps.id, appId)))[0]).toMatchObject({ name: 'Shop', publishedVersion: 4 });

    // Reviewed again, it goes live; a revision of a version that is no longer live is refused too.
    const again = (await admin<Changes>(foyer, 'GET', `/apps/${appId}/changes`, { token })).body;
    expect(again.changes).toEqual([{ kind: 'changed', path: 'name', from: 'Shop', to: 'Shop unseen' }]);
    expect((await admin(foyer, 'POST', `/apps/${appId}/publish`, { token, body: { revision: again.revision } })).status).toBe(201);
    await admin(foyer, 'PUT', `/apps/${appId}/draft`, { token, body: { config: live } });
    const late = await admin(foyer, 'POST', `/apps/${appId}/publish`, { token, body: { revision: again.revision } });
    expect(late.body).toMatchObject({ statusCode: 409, error: 'CHANGED_SINCE_REVIEW' });
    const back = (await admin<Changes>(foyer, 'GET', `/apps/${appId}/changes`, { token })).body;
    expect((await admin(foyer, 'POST', `/apps/${appId}/publish`, { token, body: { revision: back.revision } })).status).toBe(201);
    expect((await foyer.db.select().from(apps).where(eq(apps.id, appId)))[0]).toMatchObject({ name: 'Shop', publishedVersion: 6 });
  });

  it('uploads a logo served from the API host with safe headers', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    const uploaded = await admin<{ url: string }>(foyer, 'POST', `/apps/${appId}/logo`, { token, body: png, contentType: 'image/png' });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.url).toMatch(new RegExp(`^${foyer.urls.api}/${appId}/assets/[0-9a-f-]{36}$`));
    const served = await fetch(uploaded.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(served.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    expect((await auditOf(appId, 'app.logo_uploaded'))[0]!.detail).toMatchObject({
      actor: CONSOLE_OWNER_EMAIL,
      contentType: 'image/png',
      bytes: png.length,
    });

    // The configurator then puts the URL into the draft.
    const live = (await admin<AppAnswer>(foyer, 'GET', `/apps/${appId}`, { token })).body.live;
    const saved = await admin(foyer, 'PUT', `/apps/${appId}/draft`, { token, body: { config: { ...live, logo: uploaded.body.url } } });
    expect(saved.status).toBe(200);
  });

  it('creates a first workspace with the owner invited by mail', async () => {
    const created = await admin<{ workspace: { id: string; name: string } }>(foyer, 'POST', `/apps/${appId}/workspaces`, {
      token,
      body: { name: 'Shop team' },
    });
    expect(created.status).toBe(201);
    expect(created.body.workspace.name).toBe('Shop team');
    const [membership] = await foyer.db
      .select({ role: tenantUsers.role, enabled: tenantUsers.enabled, appId: tenants.appId, email: users.email, userApp: users.appId })
      .from(tenantUsers)
      .innerJoin(tenants, eq(tenants.id, tenantUsers.tenantId))
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .where(eq(tenants.id, created.body.workspace.id));
    expect(membership).toEqual({ role: 'OWNER', enabled: true, appId, email: CONSOLE_OWNER_EMAIL, userApp: appId });
    const [mail] = await foyer.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.appId, appId), eq(outbox.recipient, CONSOLE_OWNER_EMAIL)));
    expect(mail!.kind).toBe('invite');
    expect(mail!.text).toContain(`${foyer.urls.ui}/auth/set-password/`);
    expect(mail!.text).toContain('The link works once and expires in 7 days.');
    expect((await auditOf(appId, 'app.workspace_created'))[0]!.detail).toMatchObject({
      actor: CONSOLE_OWNER_EMAIL,
      tenantId: created.body.workspace.id,
      name: 'Shop team',
    });

    const byKey = await admin(foyer, 'POST', `/apps/${appId}/workspaces`, { apiKey, body: { name: 'Automated' } });
    expect(byKey.status).toBe(400);
    expect(byKey.body).toMatchObject({
      error: 'VALIDATION_FAILED',
      details: [{ path: '/ownerEmail', message: 'is required when calling with an API key' }],
    });
  });
});

describe('an app that switches password sign-in off', () => {
  async function session(path: string, body: unknown) {
    return new Browser().request(`${foyer.urls.auth}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': foyer.demo.appId },
      body: JSON.stringify(body),
      origin: foyer.urls.ui,
    });
  }

  it('keeps the settings of an app that was never published as version 1 at its first publish', async () => {
    const appId = await insertApp(foyer, { name: 'Older app', settings: { tenantSelfSignup: false } });
    const [demoOwner] = await foyer.db
      .select({ tenantId: appOwners.tenantId })
      .from(appOwners)
      .where(eq(appOwners.appId, foyer.demo.appId));
    await foyer.db.insert(appOwners).values({ appId, tenantId: demoOwner!.tenantId });
    const live = (await admin<AppAnswer>(foyer, 'GET', `/apps/${appId}`, { token })).body.live;
    await admin(foyer, 'PUT', `/apps/${appId}/draft`, { token, body: { config: { ...live, tenantSelfSignup: true } } });
    const published = await admin<{ version: { version: number } }>(foyer, 'POST', `/apps/${appId}/publish`, { token, body: {} });
    expect(published.body.version.version).toBe(2);
    const first = await admin<{ version: Record<string, unknown>; config: AppConfig }>(foyer, 'GET', `/apps/${appId}/versions/1`, {
      token,
    });
    expect(first.body.version).toMatchObject({ author: 'Foyer', note: 'Settings before the first publish' });
    expect(first.body.config.tenantSelfSignup).toBe(false);
  });

  it('refuses password sign-in and says the user has no password; restoring version 1 brings it back', async () => {
    const owner = foyer.demo.users[0]!;
    const live = (await admin<AppAnswer>(foyer, 'GET', `/apps/${foyer.demo.appId}`, { token })).body.live;
    expect(live.passwordEnabled).toBeUndefined();
    await admin(foyer, 'PUT', `/apps/${foyer.demo.appId}/draft`, { token, body: { config: { ...live, passwordEnabled: false } } });
    const published = await admin<{ version: { version: number } }>(foyer, 'POST', `/apps/${foyer.demo.appId}/publish`, {
      token,
      body: {},
    });
    // The demo data is version 1.
    expect(published.body.version.version).toBe(2);

    const config = await session('/auth/credentialsConfig', { username: owner.email });
    expect(await config.json()).toMatchObject({ hasPassword: false });
    const refused = await session('/auth/authenticate', { username: owner.email, password: owner.password });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      statusCode: 403,
      error: 'PASSWORD_SIGN_IN_DISABLED',
      message: 'This app does not allow signing in with a password',
    });

    const first = await admin<{ version: Record<string, unknown>; config: AppConfig }>(
      foyer,
      'GET',
      `/apps/${foyer.demo.appId}/versions/1`,
      { token },
    );
    expect(first.body.version).toMatchObject({ author: 'Foyer', note: 'Demo data' });
    expect(first.body.config).toEqual(live);
    await admin(foyer, 'POST', `/apps/${foyer.demo.appId}/versions/1/restore`, { token });
    await admin(foyer, 'POST', `/apps/${foyer.demo.appId}/publish`, { token, body: {} });
    expect(await (await session('/auth/credentialsConfig', { username: owner.email })).json()).toMatchObject({ hasPassword: true });
    expect((await session('/auth/authenticate', { username: owner.email, password: owner.password })).status).toBe(200);
  });
});

describe('a confidential app', () => {
  it('publishes the application type, makes a client secret shown once and stored sealed, and refuses private keys', async () => {
    const appId = await insertApp(foyer, { name: 'Server app' });
    const [demoOwner] = await foyer.db
      .select({ tenantId: appOwners.tenantId })
      .from(appOwners)
      .where(eq(appOwners.appId, foyer.demo.appId));
    await foyer.db.insert(appOwners).values({ appId, tenantId: demoOwner!.tenantId });
    const live = (await admin<AppAnswer>(foyer, 'GET', `/apps/${appId}`, { token })).body.live;

    const privateJwk = {
      kty: 'EC',
      crv: 'P-256',
      x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
      y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
      d: 'jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI',
    };
    const withPrivateKey = await admin(foyer, 'PUT', `/apps/${appId}/draft`, {
      token,
      body: { config: { ...live, clientType: 'confidential', tokenEndpointAuthMethod: 'private_key_jwt', jwks: { keys: [privateJwk] } } },
    });
    expect(withPrivateKey.status).toBe(400);

    const config = { ...live, clientType: 'confidential', tokenEndpointAuthMethod: 'client_secret_basic', requirePkce: false };
    expect((await admin(foyer, 'PUT', `/apps/${appId}/draft`, { token, body: { config } })).status).toBe(200);
    const changes = await admin<{ changes: { path: string }[] }>(foyer, 'GET', `/apps/${appId}/changes`, { token });
    expect(changes.body.changes.map((change) => change.path)).toEqual(expect.arrayContaining(['clientType', 'requirePkce']));
    expect((await admin(foyer, 'POST', `/apps/${appId}/publish`, { token, body: { note: 'Server side' } })).status).toBe(201);

    const made = await admin<{ clientSecret: string }>(foyer, 'POST', `/apps/${appId}/client-secret`, { token });
    expect(made.status).toBe(201);
    expect(made.body.clientSecret).toMatch(/^fys_[\w-]{40,}$/);
    const [row] = await foyer.db.select().from(apps).where(eq(apps.id, appId));
    expect(row!.clientSecretSealed).toEqual(expect.any(String));
    expect(row!.clientSecretSealed).not.toContain(made.body.clientSecret);
    const read = await admin<AppAnswer & { clientSecretCreatedAt: string }>(foyer, 'GET', `/apps/${appId}`, { token });
    expect(read.body.clientSecretCreatedAt).toEqual(expect.any(String));
    expect(JSON.stringify(read.body)).not.toContain(made.body.clientSecret);
    expect((await auditOf(appId, 'app.client_secret_regenerated'))[0]!.detail).toEqual({ actor: CONSOLE_OWNER_EMAIL });

    // The secret authenticates the app at the introspection endpoint; another does not.
    const introspect = (secret: string) =>
      fetch(`${foyer.urls.auth}/token/introspection`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString('base64')}`,
        },
        body: 'token=unknown-token',
      });
    expect(await (await introspect(made.body.clientSecret)).json()).toEqual({ active: false });
    expect((await introspect('fys_guessed')).status).toBe(401);
  });
});
