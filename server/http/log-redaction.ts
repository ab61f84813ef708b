// What the logs may not hold: the secrets that travel in request URLs (mailed-link, passkey, domain
// proof and handover tokens, OAuth codes and states, whatever a route added later carries), and the
// parameters of failed SQL (e-mails, token hashes), which database errors carry in their message.
// Fastify logs every request's URL at the production level (info).
const REDACTED = '[redacted]';

/**
 * A secret in an address is recognised by its shape, whatever the route: Foyer's tokens are 43
 * base64url characters (32 random bytes), OAuth codes, states and PKCE verifiers as long or longer, a
 * JWT's parts runs of 36 and more between dots, a handover's `args` standard base64; other providers'
 * codes include 20 hex digits (GitHub's). A run of that alphabet mixing two of lower case, upper case
 * and digits is one: the words of a route use one kind of letter. UUIDs (app, workspace, connection
 * ids) name things and stay readable.
 */
const BASE64URL_RUN = /[A-Za-z0-9_-]{32,}/g;
const HEX_RUN = /[0-9a-f]{16,}|[0-9A-F]{16,}/g;
const STANDARD_BASE64 = /^[A-Za-z0-9+/]{32,}={0,2}$/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const CHARACTER_KINDS = [/[a-z]/, /[A-Z]/, /[0-9]/];

/** Query parameters that always grant something, whatever their length: OAuth's and the mailed links'. */
const SECRET_PARAMETERS = new Set(['token', 'forgotPasswordToken', 'code', 'code_verifier', 'refresh_token', 'id_token_hint']);

const mixesKinds = (run: string) => CHARACTER_KINDS.filter((kind) => kind.test(run)).length >= 2;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Whether a path segment, query name or query value (as sent, percent-encoded) holds a token. */
function looksLikeToken(text: string): boolean {
  const value = decoded(text);
  if (STANDARD_BASE64.test(value) && mixesKinds(value)) return true;
  const withoutIds = value.replace(UUID, ' ');
  return [...withoutIds.matchAll(BASE64URL_RUN), ...withoutIds.matchAll(HEX_RUN)].some(([run]) => mixesKinds(run));
}

const redacted = (text: string) => (looksLikeToken(text) ? REDACTED : text);

/** The URL with every path segment, query name and query value that looks like a token replaced; the rest as sent. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const path = (queryStart === -1 ? url : url.slice(0, queryStart)).split('/').map(redacted).join('/');
  if (queryStart === -1) return path;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return redacted(pair);
      const name = pair.slice(0, equals);
      return `${redacted(name)}=${SECRET_PARAMETERS.has(decoded(name)) ? REDACTED : redacted(pair.slice(equals + 1))}`;
    });
  return `${path}?${query.join('&')}`;
}

/** drizzle's DrizzleQueryError ends its message with "params: ..." (node_modules/drizzle-orm/errors.js). */
const withoutParameters = (text: string | undefined) => (text ?? '').replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, `\nparams: ${REDACTED}`);

const SQLSTATE = /^[0-9A-Z]{5}$/;
const withoutQuotedValues = (text: string | undefined) => withoutParameters(text).replace(/"[^"\n]*"/g, `"${REDACTED}"`);

type SerializedError = {
  type: string;
  message: string;
  stack: string;
  code?: unknown;
  cause?: SerializedError;
};

function serializeError(error: unknown, depth = 0): SerializedError | undefined {
  if (!(error instanceof Error) || depth > 3) return undefined;
  const { code } = error as { code?: unknown };
  // PostgreSQL quotes the offending input in its messages ('invalid input syntax for type integer: "..."').
  const clean = typeof code === 'string' && SQLSTATE.test(code) ? withoutQuotedValues : withoutParameters;
  const serialized: SerializedError = { type: error.name, message: clean(error.message), stack: clean(error.stack) };
  if (code !== undefined) serialized.code = code;
  const cause = serializeError(error.cause, depth + 1);
  if (cause) serialized.cause = cause;
  return serialized;
}

/** pino serializers for every listener (server/http/listener.ts). */
export const logSerializers = {
  // Fastify hands over its request (with the client address as `ip`, proxies considered).
  req: (request: { method?: string; url?: string; ip?: string }) => ({
    method: request.method,
    url: redactUrl(request.url ?? ''),
    remoteAddress: request.ip,
  }),
  err: (error: Error): SerializedError => serializeError(error)!,
};
