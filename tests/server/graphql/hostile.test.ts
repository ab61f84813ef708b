// Callers who try to read what is not theirs: forged tenant/app headers, tokens that do not hold,
// and tokens of one app presented at another. Each gets a 4xx and nothing of anyone else.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { tenants, tenantUsers, users } from '../../../server/db/schema.ts';
import { bearer, errorCodes, postGraphQL } from '../support/graphql.ts';
import { findMembership, foreignKey, mintAccessToken, serverKeyId, type Membership, type MintOptions } from '../support/tokens.ts';
import { insertApp } from '../support/apps.ts';

let foyer: TestFoyer;
let acmeAdmin: Membership;
let globexViewer: Membership;
let ownerAtAcme: Membership;
let ownerAtGlobex: Membership;
/** A second app with its own workspace and member. */
let otherApp: { appId: string; member: Membership };

async function createOtherApp(): Promise<{ appId: string; member: Membership }> {
  const appId = randomUUID();
  const tenantId = randomUUID();
  const userId = randomUUID();
  const tenantUserId = randomUUID();
  const callback = 'https://other.example.com/callback';
  await insertApp(foyer, { id: appId, settings: { passkeysEnabled: false }, redirectUris: [callback] });
  await foyer.db.insert(tenants).values({ id: tenantId, appId, name: 'Initech' });
  await foyer.db.insert(users).values({ id: userId, appId, email: 'peter@initech.example' });
  await foyer.db.insert(tenantUsers).values({ id: tenantUserId, tenantId, userId, role: 'OWNER' });
  return { appId, member: { tenantUserId, tenantId, appId, role: 'OWNER', email: 'peter@initech.example', plan: null } };
}

beforeAll(async () => {
  foyer = await startFoyer();
  acmeAdmin = await findMembership(foyer.db, 'admin@acme.demo.foyer.test', 'Acme');
  globexViewer = await findMembership(foyer.db, 'viewer@globex.demo.foyer.test', 'Globex');
  ownerAtAcme = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Acme');
  ownerAtGlobex = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Globex');
  otherApp = await createOtherApp();
});
afterAll(() => foyer?.close());

const mint = (membership: Membership, options: Partial<MintOptions> = {}) =>
  mintAccessToken(foyer.db, membership, { issuer: foyer.urls.auth, ...options });

const READ_ALL = '{ getTenant { id name } getTenantAnonymous { id name } getMe { id email } }';

describe('forged headers', () => {
  it("Acme's user naming Globex in x-tenant-id, x-app-id and x-tenant-user-id still reads only Acme", async () => {
    const answer = await postGraphQL(
      foyer.urls.api,
      { query: READ_ALL },
      {
        ...bearer(await mint(acmeAdmin)),
        'x-tenant-id': globexViewer.tenantId,
        'x-tenant-user-id': globexViewer.tenantUserId,
        'x-app-id': otherApp.appId,
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      getTenant: { id: acmeAdmin.tenantId, name: 'Acme' },
      getTenantAnonymous: { id: acmeAdmin.tenantId, name: 'Acme' },
      getMe: { id: acmeAdmin.tenantUserId, email: 'admin@acme.demo.foyer.test' },
    });
    expect(JSON.stringify(answer.body)).not.toContain('Globex');
  });

  it('a member of both workspaces gets the one the token names, whatever x-tenant-id says', async () => {
    const answer = await postGraphQL(
      foyer.urls.api,
      { query: '{ getTenant { name } }' },
      {
        ...bearer(await mint(ownerAtAcme)),
        'x-tenant-id': ownerAtGlobex.tenantId,
      },
    );
    expect(answer.body.data?.getTenant).toEqual({ name: 'Acme' });
  });

  it('an anonymous caller naming a workspace in x-tenant-id learns nothing about it', async () => {
    const answer = await postGraphQL(
      foyer.urls.api,
      { query: '{ getTenantAnonymous { id name locale } }' },
      {
        'x-app-id': foyer.demo.appId,
        'x-tenant-id': globexViewer.tenantId,
      },
    );
    expect(answer.status).toBe(401);
    expect(errorCodes(answer)).toEqual(['UNAUTHENTICATED']);
    expect(JSON.stringify(answer.body)).not.toContain('Globex');
  });
});

describe('tokens that do not hold', () => {
  const cases: [string, () => Promise<string>][] = [
    [
      'signed by another key under the server’s key id',
      async () => mint(acmeAdmin, { key: await foreignKey(await serverKeyId(foyer.db)) }),
    ],
    ['signed by another key under an unknown key id', async () => mint(acmeAdmin, { key: await foreignKey('unknown-key') })],
    ['expired', () => mint(acmeAdmin, { expiresIn: -60 })],
    ['from another issuer', () => mint(acmeAdmin, { issuer: 'https://auth.evil.example' })],
    ['with an audience other than its app', () => mint(acmeAdmin, { claims: { aud: otherApp.appId } })],
    ['with its app as the only audience, as an ID token has', () => mint(acmeAdmin, { claims: { aud: acmeAdmin.appId } })],
    ['with its app among other audiences', () => mint(acmeAdmin, { claims: { aud: [acmeAdmin.appId, otherApp.appId] } })],
    ['typed as something other than an access token (an ID token)', () => mint(acmeAdmin, { typ: 'JWT' })],
    ['naming a workspace its membership is not in', () => mint(acmeAdmin, { claims: { tid: globexViewer.tenantId } })],
    ['naming another app than its membership’s', () => mint(acmeAdmin, { claims: { aid: otherApp.appId, aud: otherApp.appId } })],
    [
      'unsigned (alg none)',
      async () => {
        const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
        const now = Math.floor(Date.now() / 1000);
        const claims = {
          sub: acmeAdmin.tenantUserId,
          aud: acmeAdmin.appId,
          aid: acmeAdmin.appId,
          tid: acmeAdmin.tenantId,
          scope: 'AUTHENTICATED TENANT_READ',
          iss: foyer.urls.auth,
          iat: now,
          exp: now + 600,
        };
        return `${encode({ alg: 'none', typ: 'at+jwt' })}.${encode(claims)}.`;
      },
    ],
    ['not a JWT at all', async () => 'not-a-token'],
  ];

  it.each(cases)('a token %s answers UNAUTHENTICATED (401)', async (_label, makeToken) => {
    const answer = await postGraphQL(foyer.urls.api, { query: READ_ALL }, bearer(await makeToken()));
    expect(answer.status).toBe(401);
    expect(answer.body.data ?? null).toBeNull();
    expect(new Set(errorCodes(answer))).toEqual(new Set(['UNAUTHENTICATED']));
    expect(JSON.stringify(answer.body)).not.toMatch(/Acme|Globex|Initech/);
  });

  it('a token of Foyer naming a membership that no longer exists answers MEMBERSHIP_ENDED (401), revealing nothing', async () => {
    const answer = await postGraphQL(foyer.urls.api, { query: READ_ALL }, bearer(await mint({ ...acmeAdmin, tenantUserId: randomUUID() })));
    expect(answer.status).toBe(401);
    expect(answer.body.data ?? null).toBeNull();
    expect(new Set(errorCodes(answer))).toEqual(new Set(['MEMBERSHIP_ENDED']));
    expect(JSON.stringify(answer.body)).not.toMatch(/Acme|Globex|Initech/);
  });

  it('a bad token is not downgraded to an anonymous call, even with a valid x-app-id', async () => {
    const answer = await postGraphQL(
      foyer.urls.api,
      { query: '{ getAppAnonymous { name } }' },
      {
        ...bearer(await mint(acmeAdmin, { expiresIn: -60 })),
        'x-app-id': foyer.demo.appId,
      },
    );
    expect(answer.status).toBe(401);
    expect(errorCodes(answer)).toEqual(['UNAUTHENTICATED']);
  });

  it('an Authorization header that is not a bearer token is rejected', async () => {
    const answer = await postGraphQL(
      foyer.urls.api,
      { query: '{ getMe { id } }' },
      {
        authorization: `Basic ${Buffer.from('admin@acme.demo.foyer.test:Foyer-demo-2026!').toString('base64')}`,
      },
    );
    expect(answer.status).toBe(401);
  });
});

describe('two apps', () => {
  it("a token of app A sent with app B's x-app-id answers about A only", async () => {
    const answer = await postGraphQL(
      foyer.urls.api,
      { query: '{ getAppAnonymous { id name } getTenant { name } }' },
      {
        ...bearer(await mint(acmeAdmin)),
        'x-app-id': otherApp.appId,
      },
    );
    expect(answer.body.data).toEqual({ getAppAnonymous: { id: foyer.demo.appId, name: 'Demo app' }, getTenant: { name: 'Acme' } });
  });

  it("app B's member reads app B's workspace, whatever x-app-id says", async () => {
    const answer = await postGraphQL(
      foyer.urls.api,
      { query: '{ getAppAnonymous { name } getTenant { name } }' },
      {
        ...bearer(await mint(otherApp.member)),
        'x-app-id': foyer.demo.appId,
      },
    );
    expect(answer.body.data).toEqual({ getAppAnonymous: { name: 'Other app' }, getTenant: { name: 'Initech' } });
  });
});
