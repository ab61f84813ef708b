// A hosted handover's proof (docs/handover.md). The app's front
// end makes a PKCE verifier; its back end asks POST {auth}/handover/code/{appId} with the verifier's
// challenge; the verifier travels to the hosted screen in the address's fragment, which no server
// sees, so a code read from a log or a Referer redeems nothing.

export interface HandoverProof {
  /** Goes with the code to the hosted screen (userManagementHandoverUrl). */
  codeVerifier: string;
  /** Goes to the app's back end, which sends it with its request for the code. */
  codeChallenge: string;
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The S256 challenge of `codeVerifier` (RFC 7636 section 4.2). */
export async function challengeOf(codeVerifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(codeVerifier))));
}

/** A fresh verifier (32 random bytes) and its challenge. */
export async function createHandoverProof(): Promise<HandoverProof> {
  const codeVerifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  return { codeVerifier, codeChallenge: await challengeOf(codeVerifier) };
}
