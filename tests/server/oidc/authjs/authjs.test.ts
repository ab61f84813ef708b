// Auth.js (@auth/core) configured by issuer discovery alone, as its docs set up a generic OpenID
// Connect provider, with Foyer as a confidential app: sign-in through the hosted screens, then the
// Auth.js session names the person's e-mail and name. Auth.js lives in this folder's own package
// (see package.json here); scripts/test.mjs installs it.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Auth, type AuthConfig } from '@auth/core';
import { startFoyer, type TestFoyer } from '../../../../server/testing.ts';
import { apps } from '../../../../server/db/schema.ts';
import { rotateClientSecret } from '../../../../server/apps/client-secret.ts';
import { Browser } from '../browser.ts';
import { choose, logIn, workspaces } from '../sign-in.ts';

let foyer: TestFoyer;
let server: Server;
let appUrl: string;

async function toRequest(message: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) if (typeof value === 'string') headers.set(name, value);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  return new Request(new URL(message.url ?? '/', appUrl), { method: message.method, headers, body });
}

beforeAll(async () => {
  foyer = await startFoyer();
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
  await foyer.db
    .update(apps)
    .set({
      settings: { ...app!.settings, clientType: 'confidential', tokenEndpointAuthMethod: 'client_secret_basic' },
      redirectUris: [...app!.redirectUris, `${appUrl}/auth/callback/foyer`],
    })
    .where(eq(apps.id, foyer.demo.appId));
  const clientSecret = await rotateClientSecret(foyer.db, foyer.config.secret, foyer.demo.appId);

  const config: AuthConfig = {
    secret: 'an-auth-js-secret-of-at-least-32-characters',
    trustHost: true,
    basePath: '/auth',
    providers: [{ id: 'foyer', name: 'Foyer', type: 'oidc', issuer: foyer.urls.auth, clientId: foyer.demo.appId, clientSecret }],
  };
  server.on('request', (message, response) => {
    void toRequest(message)
      .then((request) => Auth(request, config))
      .then(async (answer) => {
        const headers: Record<string, string | string[]> = {};
        answer.headers.forEach((value, name) => {
          if (name !== 'set-cookie') headers[name] = value;
        });
        headers['set-cookie'] = answer.headers.getSetCookie();
        response.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
      });
  });
});

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await foyer?.close();
});

describe('Auth.js by issuer discovery', () => {
  it('signs in through the hosted screens and its session shows the e-mail and name', async () => {
    const owner = foyer.demo.users[0]!;
    const browser = new Browser();
    const { csrfToken } = (await (await browser.request(`${appUrl}/auth/csrf`)).json()) as { csrfToken: string };
    const started = await browser.request(`${appUrl}/auth/signin/foyer`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${appUrl}/signed-in` }).toString(),
    });
    expect(started.status).toBe(302);
    const authorize = new URL(started.headers.get('location')!);
    expect(authorize.origin + authorize.pathname).toBe(`${foyer.urls.auth}/authorize`);

    const toLogin = await browser.navigate(authorize.toString(), (url) => url.origin === foyer.urls.ui);
    expect(toLogin.url).toBe(`${foyer.urls.ui}/auth/login?appId=${foyer.demo.appId}`);
    await logIn(foyer, browser, owner.email, owner.password);
    const acme = (await workspaces(foyer, browser)).find((workspace) => workspace.tenant.name === 'Acme')!;
    const callback = await choose(foyer, browser, acme.id, `${appUrl}/auth/callback/foyer`);

    const finished = await browser.request(callback);
    expect(finished.status).toBe(302);
    expect(finished.headers.get('location')).toBe(`${appUrl}/signed-in`);
    const session = (await (await browser.request(`${appUrl}/auth/session`)).json()) as { user?: { email?: string; name?: string } };
    expect(session.user).toMatchObject({ email: owner.email, name: 'Olivia Owner' });
  });
});
