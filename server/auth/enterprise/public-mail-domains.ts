// E-mail domains no workspace may claim for an enterprise connection: free mail providers
// (email-providers, kept from the providers' published lists) and disposable mail services
// (mailchecker). Their addresses belong to the providers' customers, not to one organization, and a
// disposable service hands any of its mailboxes to anyone, so neither a DNS record nor a role mailbox
// there proves a workspace holds the domain. Both lists (some 65,000 domains) load on first use: most
// starts never check a claim (tests/unit/build/server-start-modules.test.ts).

interface PublicMailLists {
  freeMail: ReadonlySet<string>;
  disposable: ReadonlySet<string>;
}

let lists: Promise<PublicMailLists> | undefined;

function loadLists(): Promise<PublicMailLists> {
  lists ??= Promise.all([import('email-providers/all.json', { with: { type: 'json' } }), import('mailchecker')]).then(
    // Default exports only: the server bundle exposes a CommonJS package as its default export alone.
    ([freeMail, mailchecker]) => ({ freeMail: new Set(freeMail.default), disposable: mailchecker.default.blacklist() }),
  );
  return lists;
}

/**
 * Whether `domain` (normalized) is a public mail domain: a free mail provider's own, or a disposable
 * service's or one of its subdomains (such services give out addresses at any subdomain).
 */
export async function isPublicMailDomain(domain: string): Promise<boolean> {
  const { freeMail, disposable } = await loadLists();
  if (freeMail.has(domain)) return true;
  const labels = domain.split('.');
  return labels.some((_, index) => disposable.has(labels.slice(index).join('.')));
}

/** The public mail domains among `domains`, in their order. */
export async function publicMailDomainsAmong(domains: readonly string[]): Promise<string[]> {
  const flags = await Promise.all(domains.map(isPublicMailDomain));
  return domains.filter((_, index) => flags[index]);
}
