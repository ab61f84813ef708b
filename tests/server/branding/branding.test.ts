// Branding storage on the API host: the published stylesheet (tokens, then custom CSS), translations
// and logos, with their caching headers. Settings are written straight to the apps row here, as data
// stored before or around the admin API would be: what fails the rules is left out, not served.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TestFoyer } from '../../../server/testing.ts';
import { startFoyer } from '../../../server/testing.ts';
import { appAssets, apps } from '../../../server/db/schema.ts';
import type { AppSettings } from '../../../server/db/app-settings.ts';

let foyer: TestFoyer;
let baseSettings: AppSettings;

beforeAll(async () => {
  foyer = await startFoyer();
  [{ settings: baseSettings }] = await foyer.db.select({ settings: apps.settings }).from(apps).where(eq(apps.id, foyer.demo.appId));
});

afterAll(async () => {
  await foyer?.close();
});

async function store(extra: Partial<AppSettings>) {
  await foyer.db
    .update(apps)
    .set({ settings: { ...baseSettings, ...extra } })
    .where(eq(apps.id, foyer.demo.appId));
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${foyer.urls.api}/${path}`, { headers });

describe('/{appId}/custom.css', () => {
  it('serves an empty stylesheet for an app without branding, readable from any origin', async () => {
    await store({});
    const response = await get(`${foyer.demo.appId}/custom.css`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.text()).toBe('');
  });

  it('serves every design token on :root, then the custom CSS', async () => {
    await store({
      branding: {
        colors: { primary: '#0a7', secondary: 'rgb(61, 194, 255)', danger: 'crimson', text: '#111111', background: 'hsl(0, 0%, 100%)' },
        radius: '0.5rem',
        font: "'Inter', Arial, sans-serif",
        customCss: '.login h1 { letter-spacing: 0.02em; }',
      },
    });
    const response = await get(`${foyer.demo.appId}/custom.css`);
    expect(await response.text()).toBe(
      [
        ':root {',
        '  --foyer-color-primary: #0a7;',
        '  --foyer-color-secondary: rgb(61, 194, 255);',
        '  --foyer-color-danger: crimson;',
        '  --foyer-color-text: #111111;',
        '  --foyer-color-background: hsl(0, 0%, 100%);',
        '  --foyer-radius: 0.5rem;',
        "  --foyer-font-family: 'Inter', Arial, sans-serif;",
        '}',
        '.login h1 { letter-spacing: 0.02em; }',
      ].join('\n'),
    );
  });

  it('leaves out stored tokens and custom CSS that fail the rules', async () => {
    await store({
      branding: {
        colors: { primary: 'red;}body{x:y', danger: '#e44' },
        radius: '8px;} *{display:none',
        font: 'Inter</style>',
        customCss: '</style><script>alert(1)</script>',
      },
    });
    const css = await (await get(`${foyer.demo.appId}/custom.css`)).text();
    expect(css).toBe(':root {\n  --foyer-color-danger: #e44;\n}\n');
  });

  it('carries a strong ETag over the body and no-cache: unchanged means 304, a change means a new tag', async () => {
    await store({ branding: { colors: { primary: '#1f42dd' } } });
    const first = await get(`${foyer.demo.appId}/custom.css`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{43}"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');

    const revalidated = await get(`${foyer.demo.appId}/custom.css`, { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    expect((await get(`${foyer.demo.appId}/custom.css`, { 'if-none-match': `W/${etag}` })).status).toBe(200);
    expect((await get(`${foyer.demo.appId}/custom.css`, { 'if-none-match': `"other", ${etag}` })).status).toBe(304);

    await store({ branding: { colors: { primary: '#0a7' } } });
    const changed = await get(`${foyer.demo.appId}/custom.css`, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('answers 404 UNKNOWN_APP for an unknown app', async () => {
    const response = await get(`${randomUUID()}/custom.css`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'UNKNOWN_APP' });
  });
});

describe('/{appId}/translations.json', () => {
  it('serves the overrides with an ETag, and {} for none', async () => {
    await store({});
    const none = await get(`${foyer.demo.appId}/translations.json`);
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual({});

    const translations = { sv: { login: { title: 'Logga in' } }, en: { login: { title: 'Welcome back' } } };
    await store({ translations });
    const response = await get(`${foyer.demo.appId}/translations.json`);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('etag')).not.toBe(none.headers.get('etag'));
    expect(await response.json()).toEqual(translations);
    expect((await get(`${foyer.demo.appId}/translations.json`, { 'if-none-match': response.headers.get('etag')! })).status).toBe(304);
    expect((await get(`${randomUUID()}/translations.json`)).status).toBe(404);
  });
});

describe('/{appId}/assets/{assetId}', () => {
  it('serves the stored bytes with their type, nosniff, a deny-all CSP and an immutable cache; only under their app', async () => {
    const id = randomUUID();
    const bytes = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    await foyer.db.insert(appAssets).values({ id, appId: foyer.demo.appId, contentType: 'image/gif', bytes });
    const response = await get(`${foyer.demo.appId}/assets/${id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/gif');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);

    expect((await get(`${foyer.demo.consoleAppId}/assets/${id}`)).status).toBe(404);
    expect((await get(`${foyer.demo.appId}/assets/${randomUUID()}`)).status).toBe(404);
    expect((await get(`${foyer.demo.appId}/assets/..%2f..%2fetc`)).status).toBe(404);
  });
});
