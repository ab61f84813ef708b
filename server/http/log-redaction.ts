// What the logs may not hold: the tokens of mailed links and passkey registration, which travel in
// request URLs, and the parameters of failed SQL (e-mails, token hashes), which database errors carry
// in their message. Fastify logs every request's URL at the production level (info).
const REDACTED = '[redacted]';

/** Paths whose last segment is a secret token: the set-password and magic links (server/auth). */
const TOKEN_PATH = /^(\/auth\/(?:set-password|password|magic-link)\/)[^/?#]+/;

/** Query parameters that carry secrets: link tokens and the OAuth parameters that grant access. */
const SECRET_PARAMETERS = new Set(['token', 'forgotPasswordToken', 'code', 'code_verifier', 'refresh_token', 'id_token_hint']);

export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const path = (queryStart === -1 ? url : url.slice(0, queryStart)).replace(TOKEN_PATH, `$1${REDACTED}`);
  if (queryStart === -1) return path;
  const query = new URLSearchParams(url.slice(queryStart + 1));
  for (const key of new Set(query.keys())) if (SECRET_PARAMETERS.has(key)) query.set(key, REDACTED);
  return `${path}?${query.toString()}`;
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
