// The one token endpoint is oidc-provider's /token. The JSON variants (the original client's JSON
// /token and the /token/code|refresh/{appId} shorthands) are translated into a standard form post
// sent through the same listener, so there is no second token implementation.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { HttpError } from '../../http/errors.ts';

export interface TokenAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

const FORWARDED_HEADERS = ['cache-control', 'pragma', 'www-authenticate'];

/**
 * Posts `form` to /token (or another of oidc-provider's endpoints); `authorization` carries the
 * client's own authentication (HTTP Basic) for a confidential app.
 */
export async function callTokenEndpoint(
  app: FastifyInstance,
  form: Record<string, string>,
  ip: string,
  { authorization, url = '/token' }: { authorization?: string; url?: string } = {},
): Promise<TokenAnswer> {
  const response = await app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': ip,
      ...(authorization ? { authorization } : {}),
    },
    payload: new URLSearchParams(form).toString(),
  });
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = response.json();
    if (typeof parsed === 'object' && parsed !== null) body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: only the status is meaningful.
  }
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = response.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return { statusCode: response.statusCode, headers, body };
}

/** Sends oidc-provider's answer as it is (standard OAuth error bodies included). */
export function sendTokenAnswer(reply: FastifyReply, answer: TokenAnswer) {
  return reply.status(answer.statusCode).headers(answer.headers).send(answer.body);
}

/** Foyer's REST error shape for an OAuth error answer (e.g. invalid_grant → INVALID_GRANT). */
export function tokenError(answer: TokenAnswer): HttpError {
  const code = typeof answer.body.error === 'string' ? answer.body.error : 'server_error';
  const description = typeof answer.body.error_description === 'string' ? answer.body.error_description : code;
  if (answer.statusCode >= 500) return new HttpError(500, 'INTERNAL_SERVER_ERROR', 'Internal server error');
  return new HttpError(answer.statusCode, code.toUpperCase(), description);
}
