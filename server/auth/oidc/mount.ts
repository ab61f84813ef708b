// oidc-provider inside the auth listener: its paths are handed the raw request and response, with
// the body stream unread (oidc-provider parses bodies itself) and Fastify's CORS left out (it
// answers CORS on its own endpoints for every registered client).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { HttpError } from '../../http/errors.ts';
import { BODY_LIMIT_BYTES } from '../../http/listener.ts';
import { callTokenEndpoint, sendTokenAnswer } from './token-endpoint.ts';

/** Every path oidc-provider answers (see the `routes` setting). */
export const PROVIDER_PATHS = [
  '/authorize',
  '/authorize/*',
  '/token',
  '/token/revocation',
  '/token/introspection',
  '/.well-known/*',
  '/session/end',
  '/session/end/*',
];

export async function mountProvider(app: FastifyInstance, { provider, publicUrl }: { provider: Provider; publicUrl: string }) {
  const handle = provider.callback();
  const origin = new URL(publicUrl);

  app.removeAllContentTypeParsers();
  // The original client sent JSON to /token; it is turned into the standard form post below.
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new HttpError(400, 'BAD_REQUEST', 'The body is not valid JSON'));
    }
  });
  // Form bodies are read here so the listener's text check sees them (a NUL in client_id would
  // reach SQL); oidc-provider takes the text from req.body once the stream is read.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (request, body, done) => {
      (request.raw as typeof request.raw & { body?: string }).body = body as string;
      done(null, { form: [...new URLSearchParams(body as string)] });
    },
  );
  // Any other body stays unread for oidc-provider.
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  async function handler(request: FastifyRequest, reply: FastifyReply) {
    const isJson = (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json');
    if (request.body !== undefined && isJson) {
      if (request.method !== 'POST' || request.routeOptions.url !== '/token') {
        throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'JSON bodies are accepted only by POST /token');
      }
      const form = request.body;
      if (typeof form !== 'object' || form === null || Array.isArray(form)) {
        throw new HttpError(400, 'BAD_REQUEST', 'The body must be a JSON object');
      }
      const fields: Record<string, string> = {};
      for (const [key, value] of Object.entries(form)) {
        if (typeof value !== 'string') throw new HttpError(400, 'BAD_REQUEST', `${key} must be a string`);
        fields[key] = value;
      }
      return sendTokenAnswer(reply, await callTokenEndpoint(app, fields, request.ip, { authorization: request.headers.authorization }));
    }
    // oidc-provider builds the URLs it publishes (discovery, redirects) from the request's host: it
    // gets the configured public origin instead, so a forged Host or X-Forwarded-Host changes nothing.
    request.raw.headers.host = origin.host;
    delete request.raw.headers['x-forwarded-host'];
    if (provider.proxy) request.raw.headers['x-forwarded-proto'] = origin.protocol.slice(0, -1);
    reply.hijack();
    await handle(request.raw, reply.raw);
  }

  for (const url of PROVIDER_PATHS) {
    app.route({ method: ['GET', 'POST', 'OPTIONS'], url, config: { cors: false }, handler });
  }
}
