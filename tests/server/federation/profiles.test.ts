// What Foyer reads of a person from the OAuth 2 providers' user APIs, on answers shaped like the
// providers' documented ones (GitHub GET /user and /user/emails, Facebook Graph /me), and from
// OpenID Connect claims: an e-mail counts as verified only on the provider's explicit word.
import { describe, expect, it } from 'vitest';
import { facebookProfile, githubProfile, profileFromClaims } from '../../../server/auth/federation/providers.ts';

describe('githubProfile', () => {
  const user = { login: 'octocat', id: 583231, name: 'The Octocat', email: 'public@example.test' };

  it('takes the primary e-mail and its verified flag from /user/emails', () => {
    const emails = [
      { email: 'other@example.test', primary: false, verified: true, visibility: null },
      { email: 'octocat@example.test', primary: true, verified: true, visibility: 'public' },
    ];
    expect(githubProfile(user, emails)).toEqual({
      subject: '583231',
      email: 'octocat@example.test',
      emailVerified: true,
      firstName: 'The',
      lastName: 'Octocat',
    });
  });

  it('does not vouch for an unverified primary e-mail, nor for the public profile e-mail', () => {
    expect(githubProfile(user, [{ email: 'octocat@example.test', primary: true, verified: false }])).toMatchObject({
      email: 'octocat@example.test',
      emailVerified: false,
    });
    expect(githubProfile(user, [])).toMatchObject({ email: 'public@example.test', emailVerified: false });
  });

  it('refuses an answer without a user id', () => {
    expect(() => githubProfile({ login: 'x' }, [])).toThrow();
  });
});

describe('facebookProfile', () => {
  it('never vouches for the e-mail (the Graph API does not say)', () => {
    expect(facebookProfile({ id: '10158', email: 'fb@example.test', first_name: 'Fae', last_name: 'Book' })).toEqual({
      subject: '10158',
      email: 'fb@example.test',
      emailVerified: false,
      firstName: 'Fae',
      lastName: 'Book',
    });
  });
});

describe('profileFromClaims', () => {
  it('reads email_verified as true only when the provider says so (Apple\'s text "true" included)', () => {
    expect(profileFromClaims({ sub: 'a', email: 'a@x.test', email_verified: 'true' }).emailVerified).toBe(true);
    expect(profileFromClaims({ sub: 'a', email: 'a@x.test', email_verified: true }).emailVerified).toBe(true);
    expect(profileFromClaims({ sub: 'a', email: 'a@x.test', email_verified: 'false' }).emailVerified).toBe(false);
    expect(profileFromClaims({ sub: 'a', email: 'a@x.test' }).emailVerified).toBe(false);
    expect(() => profileFromClaims({ email: 'a@x.test' })).toThrow();
  });
});
