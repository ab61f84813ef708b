// Social sign-in as far as it goes today: getAppAnonymous tells the login screen which providers are on
// (and the password and footer settings), and /federated/{provider}/login|signup on the auth origin
// check the provider and the app, then send the browser back to the app's login with the
// "not available yet" error.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import type { AppSettings } from '../../../server/db/app-settings.ts';
import { Browser } from '../oidc/browser.ts';
import { authorizationRequest, callbackUri, relyingParty } from '../oidc/sign-in.ts';
import { postGraphQL } from '../support/graphql.ts';
import { insertApp } from '../support/apps.ts';

let foyer: TestFoyer;
/** An app with Google and GitHub on, passwords off and its own footer. */
let socialAppId: string;

beforeAll(async () => {
  foyer = await startFoyer();
  socialAppId = randomUUID();
  const callback = `${foyer.urls.ui}/auth/oauth-callback`;
  const settings: AppSettings = {
    googleSsoEnabled: true,
    githubSsoEnabled: true,
    appleSsoEnabled: false,
    passwordEnabled: false,
    branding: { copyrightFooter: '© Social Inc.' },
  };
  await insertApp(foyer, { id: socialAppId, name: 'Social app', settings, redirectUris: [callback], postLogoutRedirectUris: [`${foyer.urls.ui}/auth/login`] });
});
afterAll(() => foyer?.close());

const PUBLIC_FIELDS = '{ getAppAnonymous { passwordEnabled copyrightFooter socialProviders googleSsoEnabled } }';

async function publicConfig(appId: string) {
  const answer = await postGraphQL(foyer.urls.api, { query: PUBLIC_FIELDS }, { 'x-app-id': appId });
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data?.getAppAnonymous;
}

/** One request without following the redirect. */
async function open(path: string, browser = new Browser()) {
  const response = await browser.request(`${foyer.urls.auth}${path}`);
  return { status: response.status, location: response.headers.get('location'), body: await response.text() };
}

function unavailable(appId: string) {
  return `${foyer.urls.ui}/auth/login?appId=${appId}&error=federation&errorDetails=unavailable`;
}

describe('getAppAnonymous', () => {
  it('answers passwords on, no footer and no providers for an app that set none of them', async () => {
    expect(await publicConfig(foyer.demo.appId)).toEqual({
      passwordEnabled: true,
      copyrightFooter: null,
      socialProviders: [],
      googleSsoEnabled: false,
    });
  });

  it('lists the providers whose flag is on, in the login screen order, and the password and footer settings', async () => {
    expect(await publicConfig(socialAppId)).toEqual({
      passwordEnabled: false,
      copyrightFooter: '© Social Inc.',
      socialProviders: ['google', 'github'],
      googleSsoEnabled: true,
    });
  });
});

describe('/federated/{provider}/login and /signup', () => {
  it('sends an enabled provider back to the login with the not-available error, for the app named in ?appId=', async () => {
    for (const action of ['login', 'signup']) {
      const answer = await open(`/federated/google/${action}?appId=${socialAppId}`);
      expect(answer.status).toBe(303);
      expect(answer.location).toBe(unavailable(socialAppId));
    }
  });

  it('answers a disabled provider exactly like an enabled one', async () => {
    const disabled = await open(`/federated/apple/login?appId=${socialAppId}`);
    expect(disabled).toEqual(await open(`/federated/github/login?appId=${socialAppId}`));
    expect(disabled.location).toBe(unavailable(socialAppId));
  });

  it("takes the app of the browser's pending authorization from the login session cookie", async () => {
    const browser = new Browser();
    const pending = await authorizationRequest(await relyingParty(foyer), callbackUri(foyer));
    await browser.navigate(pending.url, (url) => url.origin === foyer.urls.ui);
    expect(browser.cookie(foyer.urls.auth, 'foyer_login')).toBeDefined();
    // The pending authorization is the demo app's, whatever the query says.
    const answer = await open(`/federated/google/login?appId=${socialAppId}`, browser);
    expect(answer.location).toBe(unavailable(foyer.demo.appId));
  });

  it('refuses an unknown provider with 400 UNKNOWN_PROVIDER', async () => {
    const answer = await open(`/federated/myspace/login?appId=${socialAppId}`);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 400, error: 'UNKNOWN_PROVIDER' });
    expect(answer.location).toBeNull();
  });

  it('needs an app: 400 APP_REQUIRED without one, 404 UNKNOWN_APP for an id that names none, 400 for bad input', async () => {
    const none = await open('/federated/google/login');
    expect(none.status).toBe(400);
    expect(JSON.parse(none.body)).toMatchObject({ statusCode: 400, error: 'APP_REQUIRED' });

    const unknown = await open(`/federated/google/login?appId=${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ statusCode: 404, error: 'UNKNOWN_APP' });

    const tooLong = await open(`/federated/google/login?appId=${'a'.repeat(101)}`);
    expect(tooLong.status).toBe(400);
    expect(JSON.parse(tooLong.body)).toMatchObject({ statusCode: 400, error: 'BAD_REQUEST' });
  });
});
