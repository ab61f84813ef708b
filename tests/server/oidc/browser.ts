// A minimal browser for driving sign-in flows with fetch: a cookie jar per origin (honouring Path
// and expiry) and manual redirect following, so each hop across origins can be inspected.

interface StoredCookie {
  value: string;
  path: string;
  expires?: number;
}

export interface Hop {
  url: string;
  status: number;
  location?: string;
}

export class Browser {
  private readonly jars = new Map<string, Map<string, StoredCookie>>();

  private jar(origin: string): Map<string, StoredCookie> {
    let jar = this.jars.get(origin);
    if (!jar) {
      jar = new Map();
      this.jars.set(origin, jar);
    }
    return jar;
  }

  cookieHeader(url: URL): string {
    const now = Date.now();
    return [...this.jar(url.origin).entries()]
      .filter(([, cookie]) => (cookie.expires === undefined || cookie.expires > now) && pathMatches(url.pathname, cookie.path))
      .map(([key, cookie]) => `${key.split('\n')[0]}=${cookie.value}`)
      .join('; ');
  }

  cookie(origin: string, name: string): string | undefined {
    for (const [key, cookie] of this.jar(origin)) if (key.split('\n')[0] === name) return cookie.value;
    return undefined;
  }

  private store(url: URL, response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      let path = '/';
      let expires: number | undefined;
      for (const attribute of attributes) {
        const [key, attributeValue = ''] = attribute.split('=');
        const lower = key!.toLowerCase();
        if (lower === 'path') path = attributeValue;
        if (lower === 'max-age') expires = Date.now() + Number(attributeValue) * 1000;
        if (lower === 'expires' && expires === undefined) expires = Date.parse(attributeValue);
      }
      const key = `${name}\n${path}`;
      if (value === '' || (expires !== undefined && expires <= Date.now())) this.jar(url.origin).delete(key);
      else this.jar(url.origin).set(key, { value, path, expires });
    }
  }

  /** One request with this browser's cookies; redirects are returned, not followed. */
  async request(input: string, init: RequestInit & { origin?: string } = {}): Promise<Response> {
    const url = new URL(input);
    const headers = new Headers(init.headers);
    const cookies = this.cookieHeader(url);
    if (cookies) headers.set('cookie', cookies);
    if (init.origin) headers.set('origin', init.origin);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(url, response);
    return response;
  }

  /**
   * Follows redirects from `start` like a full-page navigation until `stop` says the URL is where
   * the test takes over (the hosted UI, an app callback) or a page answers without redirecting.
   */
  async navigate(start: string, stop: (url: URL) => boolean): Promise<{ url: string; response?: Response; hops: Hop[] }> {
    const hops: Hop[] = [];
    let url = start;
    for (let i = 0; i < 20; i += 1) {
      if (stop(new URL(url))) return { url, hops };
      const response = await this.request(url);
      const location = response.headers.get('location') ?? undefined;
      hops.push({ url, status: response.status, location });
      if (response.status < 300 || response.status >= 400 || !location) return { url, response, hops };
      await response.arrayBuffer();
      url = new URL(location, url).toString();
    }
    throw new Error(`Too many redirects from ${start}`);
  }
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}
