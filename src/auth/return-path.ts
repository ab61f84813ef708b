// Return paths travel through the authorization round trip; only same-origin paths may come back
// out of it, so a crafted login link can never send a signed-in user to another site.

/**
 * Answers the normalised path when `candidate` is a same-origin path ("/x?y#z"), else undefined.
 * Rejected: absolute and protocol-relative URLs ("http://x", "//x"), backslashes (browsers read
 * "/\x" as "//x"), and control characters or spaces (the URL parser drops tabs and newlines, so
 * "/\t/x" would turn into "//x").
 */
export function safeReturnPath(candidate: unknown, origin: string): string | undefined {
  if (typeof candidate !== 'string' || !candidate.startsWith('/')) return undefined;
  if (candidate.startsWith('//') || candidate.includes('\\')) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u0020\u007f]/.test(candidate)) return undefined;
  let base: URL;
  try {
    base = new URL(origin);
  } catch {
    return undefined;
  }
  const resolved = new URL(candidate, base);
  if (resolved.origin !== base.origin) return undefined;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
