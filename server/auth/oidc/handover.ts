// The original product's handover code (docs/ORIGINAL-CONTRACT.md 2.4, POST /handover/code/{appId}): an
// app's back end, authenticated by the app's API key, turns a signed-in person's access token into
// a short-lived authorization code of the same membership, to open a hosted screen as that person.
// The code is an ordinary oidc-provider code under a grant of its own, redeemed at /token/code/{appId}.
// It travels through a browser's address, so its bearer alone must not redeem it: a confidential
// app's code needs the app's own authentication at the token endpoint, a public app's (the hosted
// screens sign in as a public client) the PKCE verifier of the challenge the back end gave here.
import type Provider from 'oidc-provider';
import type { Database } from '../../db/client.ts';
import { HttpError } from '../../http/errors.ts';
import { findEnabledMembership } from '../memberships.ts';
import { privilegesOf } from '../../../common/roles.ts';
import type { App } from '../../apps/lookup.ts';
import { appResource, type AccessTokenVerifier } from '../access-tokens.ts';
import { DEFAULT_SCOPE } from './claims.ts';

export async function issueHandoverCode(
  { db, provider, verifier }: { db: Database; provider: Provider; verifier: AccessTokenVerifier },
  app: App,
  accessToken: string,
  codeChallenge: string | undefined,
): Promise<string> {
  const verified = await verifier.verify(accessToken);
  if (!verified.ok || verified.claims.aid !== app.id) throw new HttpError(401, 'UNAUTHENTICATED', 'The access token is invalid or expired');
  const membership = await findEnabledMembership(db, verified.claims.sub, { appId: app.id });
  if (!membership) throw new HttpError(401, 'UNAUTHENTICATED', 'The access token is invalid or expired');

  if (!codeChallenge && app.settings.clientType !== 'confidential') {
    throw new HttpError(
      400,
      'CODE_CHALLENGE_REQUIRED',
      "A public app's handover code needs codeChallenge: the S256 challenge of a PKCE verifier that only the hosted screen gets",
    );
  }
  const client = await provider.Client.find(app.id);
  if (!client) throw new HttpError(404, 'UNKNOWN_APP', 'Unknown app');
  const grant = new provider.Grant({ accountId: membership.id, clientId: app.id });
  grant.client = client;
  grant.addOIDCScope(DEFAULT_SCOPE);
  grant.addResourceScope(appResource(app.id), privilegesOf(membership.role).join(' '));
  const grantId = await grant.save();
  const code = new provider.AuthorizationCode({
    client,
    accountId: membership.id,
    grantId,
    scope: DEFAULT_SCOPE,
    redirectUri: app.defaultCallbackUri,
    resource: appResource(app.id),
    authTime: Math.floor(Date.now() / 1000),
    gty: 'authorization_code',
    ...(codeChallenge ? { codeChallenge, codeChallengeMethod: 'S256' } : {}),
  });
  return code.save();
}
