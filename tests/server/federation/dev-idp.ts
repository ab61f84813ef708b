// Drives a social sign-in through the development identity provider with the test Browser: Foyer's
// /federated/{type}/{intent}, the provider's pick screen, the chosen identity, and the way back
// (a redirect, or Apple's form post), until the hosted UI or an app callback takes over.
import { expect } from 'vitest';
import type { TestFoyer } from '../../../server/testing.ts';
import type { Browser } from '../oidc/browser.ts';

export interface FederationRun {
  /** The provider's callback on Foyer as the provider sent the browser to it (query of code and state). */
  callbackUrl: string;
  /** Where the browser ended: on the hosted UI, an app callback, or an error page. */
  url: string;
  status?: number;
}

/** From Foyer's start address to the pick screen of the development provider; answers its uid. */
export async function openPickScreen(foyer: TestFoyer, browser: Browser, start: string): Promise<string> {
  const atPick = await browser.navigate(start, (url) => url.origin === foyer.config.devIdp.url && url.pathname.startsWith('/interaction/'));
  const uid = new URL(atPick.url).pathname.split('/')[2];
  expect(uid, `no pick screen reached from ${start}: ${JSON.stringify(atPick.hops)}`).toBeTruthy();
  const page = await browser.request(atPick.url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Development sign-in');
  return uid!;
}

/** The form the provider answers with when it posts the result back (response_mode=form_post). */
function postedForm(html: string): { action: string; fields: URLSearchParams } | undefined {
  const action = /<form[^>]*method="post"[^>]*action="([^"]+)"/i.exec(html)?.[1];
  if (!action) return undefined;
  const fields = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields.set(match[1]!, match[2]!.replace(/&amp;/g, '&'));
  return { action: action.replace(/&amp;/g, '&'), fields };
}

/**
 * Chooses `identity` on the pick screen and follows the answer back to Foyer's callback, without
 * opening it: answers the callback address (for replays) so the caller decides when to go on.
 */
export async function pickIdentity(foyer: TestFoyer, browser: Browser, uid: string, identity: string): Promise<string> {
  const devIdp = foyer.config.devIdp.url;
  const chosen = await browser.request(`${devIdp}/interaction/${uid}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ identity }).toString(),
  });
  expect(chosen.status).toBe(303);
  const back = await browser.navigate(new URL(chosen.headers.get('location')!, devIdp).toString(), (url) => url.origin === foyer.urls.auth);
  if (back.response?.status === 200) {
    // Apple's way: the provider's page posts the result to Foyer's callback, which turns it into a GET.
    const form = postedForm(await back.response.text());
    expect(form, 'the provider answered neither a redirect nor a form post').toBeDefined();
    const posted = await browser.request(form!.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form!.fields.toString(),
    });
    expect(posted.status).toBe(303);
    return new URL(posted.headers.get('location')!, foyer.urls.auth).toString();
  }
  return back.url;
}

/** Opens a callback address and follows it until the hosted UI or `stop`. */
export async function openCallback(foyer: TestFoyer, browser: Browser, callbackUrl: string, stop?: (url: URL) => boolean) {
  return browser.navigate(callbackUrl, (url) => url.origin === foyer.urls.ui || (stop?.(url) ?? false));
}

/** The whole run: start, pick, callback, onwards. */
export async function federate(
  foyer: TestFoyer,
  browser: Browser,
  start: string,
  identity: string,
  stop?: (url: URL) => boolean,
): Promise<FederationRun> {
  const uid = await openPickScreen(foyer, browser, start);
  const callbackUrl = await pickIdentity(foyer, browser, uid, identity);
  const end = await openCallback(foyer, browser, callbackUrl, stop);
  return { callbackUrl, url: end.url, status: end.response?.status };
}
