// The User-Agent of the request being answered, for whatever it records (audit events, sign-in
// sessions) without threading the header through every call site. Set in preHandler, after the body
// is read, so the handler and everything it awaits run inside it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/** Longer headers are cut: the device is read from the start, the rest would only fill the database. */
export const USER_AGENT_MAX_LENGTH = 512;

const current = new AsyncLocalStorage<string | undefined>();

export function userAgentOf(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value ? value.slice(0, USER_AGENT_MAX_LENGTH) : undefined;
}

export function trackRequestDevice(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => current.run(userAgentOf(request.headers['user-agent']), done));
}

/** The User-Agent of the request in progress, if any. */
export function currentUserAgent(): string | undefined {
  return current.getStore();
}
