// The test identities of the development identity provider (server/dev-idp/server.ts): people a
// developer or a browser test signs in as with any social provider type when the app has no real
// credentials. One whose e-mail the provider vouches for, one whose e-mail it does not.
export interface DevIdentity {
  /** The provider's subject (`sub`): stable per identity. */
  id: string;
  email: string;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
}

export const DEV_IDENTITIES: readonly DevIdentity[] = [
  { id: 'dev-ada', email: 'ada@dev-idp.foyer.test', emailVerified: true, givenName: 'Ada', familyName: 'Lovelace' },
  { id: 'dev-grace', email: 'grace@dev-idp.foyer.test', emailVerified: true, givenName: 'Grace', familyName: 'Hopper' },
  { id: 'dev-una', email: 'una@dev-idp.foyer.test', emailVerified: false, givenName: 'Una', familyName: 'Unverified' },
];

export function devIdentity(id: string): DevIdentity | undefined {
  return DEV_IDENTITIES.find((identity) => identity.id === id);
}
