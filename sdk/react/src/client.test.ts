// The links to the hosted user-management views, in the forms the hosted runtime reads
// (src/app/handover.ts: appId, flow, and args as base64 JSON; the PKCE verifier in the fragment).
import { describe, expect, it } from 'vitest';
import { FoyerClient } from './client.ts';
import { challengeOf, createHandoverProof } from './handover.ts';

const client = new FoyerClient({
  authOrigin: 'http://auth.test',
  appId: 'app-1',
  redirectUri: 'http://host.test/callback',
  hostedUiOrigin: 'http://ui.test',
});

describe('links to the hosted user-management views', () => {
  it('opens a view directly, for the hosted UI to sign in by single sign-on', () => {
    expect(client.userManagementUrl('users')).toBe('http://ui.test/user-management/users?appId=app-1');
    expect(client.userManagementUrl('portal')).toBe('http://ui.test/user-management?appId=app-1');
  });

  it("hands over with the back end's one-time code, its verifier in the fragment no server sees", () => {
    const url = new URL(client.userManagementHandoverUrl('profile', { code: 'code-1', codeVerifier: 'verifier-1' }));
    expect(url.origin + url.pathname).toBe('http://ui.test/handover/app');
    expect(url.searchParams.get('appId')).toBe('app-1');
    expect(url.searchParams.get('flow')).toBe('user-management-profile');
    expect(JSON.parse(atob(url.searchParams.get('args')!))).toEqual({ code: 'code-1' });
    expect(url.search).not.toContain('verifier-1');
    expect(new URLSearchParams(url.hash.slice(1)).get('codeVerifier')).toBe('verifier-1');
  });

  it('makes a fresh PKCE verifier and its S256 challenge for the back end', async () => {
    // RFC 7636 appendix B.
    expect(await challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    const proof = await createHandoverProof();
    expect(proof.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(proof.codeChallenge).toBe(await challengeOf(proof.codeVerifier));
    expect((await createHandoverProof()).codeVerifier).not.toBe(proof.codeVerifier);
  });

  it('says what is missing without the hosted UI origin', () => {
    const bare = new FoyerClient({ authOrigin: 'http://auth.test', appId: 'app-1', redirectUri: 'http://host.test/callback' });
    expect(() => bare.userManagementUrl('users')).toThrow('FoyerProvider needs hostedUiOrigin');
  });
});
