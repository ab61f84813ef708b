// The relying party is the hosted UI: its exact origin, and its host name as RP ID only when that is
// localhost or a domain name (WebAuthn refuses IP addresses).
import { describe, expect, it } from 'vitest';
import { relyingPartyOf } from '../../../server/auth/passkeys/service.ts';

describe('relyingPartyOf', () => {
  it('takes the origin and host name of the hosted UI', () => {
    expect(relyingPartyOf('http://localhost:8080')).toEqual({ origin: 'http://localhost:8080', id: 'localhost' });
    expect(relyingPartyOf('https://Login.Example.com/app')).toEqual({ origin: 'https://login.example.com', id: 'login.example.com' });
  });

  it('refuses hosts that cannot be an RP ID', () => {
    for (const url of ['http://127.0.0.1:8080', 'http://[::1]:8080', 'http://intranet', 'https://-bad-.example.com']) {
      expect(relyingPartyOf(url), url).toBeUndefined();
    }
  });
});
