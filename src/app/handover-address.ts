// A handover's address carries the person's one-time code (in `args`) and the PKCE verifier that
// redeems it (in the fragment, which no server sees: docs/handover.md ("Handing a person over to the hosted// screens"). Both leave the address as the page's first script runs, before the rest of the page can
// keep them in the history or pass them on; the handover screen reads them from here.

export interface HandoverSecrets {
  /** The address's `args` (src/app/handover.ts reads them). */
  args: string | null;
  codeVerifier: string | null;
}

let taken: HandoverSecrets = { args: null, codeVerifier: null };

/** On a /handover/* address: keeps `args` and the fragment's verifier, and drops both from the address. */
export function takeHandoverSecrets(location: Pick<Location, 'pathname' | 'search' | 'hash'>, history: History): void {
  if (!location.pathname.startsWith('/handover')) return;
  const query = new URLSearchParams(location.search);
  taken = { args: query.get('args'), codeVerifier: new URLSearchParams(location.hash.slice(1)).get('codeVerifier') };
  query.delete('args');
  const search = query.toString();
  history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}`);
}

/** What takeHandoverSecrets kept at this page's load. */
export function handoverSecrets(): HandoverSecrets {
  return taken;
}
