// The handover code of a public app (POST /handover/code/{appId}) as an attacker meets it: a code
// seen in an address, a log or a Referer must not open the person's session. Redeeming needs the
// PKCE verifier of the challenge the app's back end gave when it asked for the code; a code is
// redeemed once, also when two redemptions race.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { replaceApiKey } from '../../../server/apps/api-keys.ts';
import { tokensOf } from './sign-in.ts';

let foyer: TestFoyer;
let apiKey: string;
let accessToken: string;

beforeAll(async () => {
  foyer = await startFoyer();
  apiKey = await replaceApiKey(foyer.db, foyer.demo.appId);
  accessToken = (await tokensOf(foyer, foyer.demo.users[1]!, 'Acme')).access_token;
});

afterAll(() => foyer?.close());

/** What the app's back end asks; answers the HTTP answer. */
function askForCode(body: Record<string, unknown>) {
  return fetch(`${foyer.urls.auth}/handover/code/${foyer.demo.appId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ accessToken, ...body }),
  });
}

function redeem(body: Record<string, unknown>) {
  return fetch(`${foyer.urls.auth}/token/code/${foyer.demo.appId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function codeWithChallenge(): Promise<{ code: string; codeVerifier: string }> {
  const codeVerifier = client.randomPKCECodeVerifier();
  const answer = await askForCode({ codeChallenge: await client.calculatePKCECodeChallenge(codeVerifier), codeChallengeMethod: 'S256' });
  expect(answer.status).toBe(200);
  const { code } = (await answer.json()) as { code: string };
  return { code, codeVerifier };
}

describe("a public app's handover code", () => {
  it('is not made without a PKCE challenge, so no code exists that its bearer alone redeems', async () => {
    const answer = await askForCode({});
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ statusCode: 400, error: 'CODE_CHALLENGE_REQUIRED' });
  });

  it('is refused with neither key nor verifier, and with a wrong verifier', async () => {
    const { code, codeVerifier } = await codeWithChallenge();
    const bare = await redeem({ code });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ statusCode: 400, error: 'INVALID_GRANT' });
    const wrong = await redeem({ code, codeVerifier: client.randomPKCECodeVerifier() });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ statusCode: 400, error: 'INVALID_GRANT' });
    // Refusals do not spend the code: the holder of the verifier still redeems it.
    const redeemed = await redeem({ code, codeVerifier });
    expect(redeemed.status).toBe(200);
    expect(await redeemed.json()).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String) });
  });

  it('is redeemed once when redemptions race: exactly one wins', async () => {
    const { code, codeVerifier } = await codeWithChallenge();
    const answers = await Promise.all(Array.from({ length: 4 }, () => redeem({ code, codeVerifier })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400]);
    for (const answer of answers.filter((each) => each.status === 400)) {
      expect(await answer.json()).toMatchObject({ statusCode: 400, error: 'INVALID_GRANT' });
    }
  });
});
