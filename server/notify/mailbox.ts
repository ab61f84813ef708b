// The development mailbox on the hosted UI origin: /dev/mailbox (HTML), /dev/mailbox.json (the same
// for tests) and each message's rendered HTML at its own URL, framed by the page under a CSP that
// allows the mail's inline styles and nothing runnable. Outside development every path is a 404.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { desc, eq, sql } from 'drizzle-orm';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { linksOf } from './render.ts';
import { MAILBOX_CSS, mailboxPage, type MailboxEntry } from './mailbox-page.ts';

/** The newest messages only: a long-running development database keeps every mail it ever sent. */
export const MAILBOX_LIMIT = 200;

const PATHS = {
  page: '/dev/mailbox',
  json: '/dev/mailbox.json',
  css: '/dev/mailbox.css',
  message: '/dev/mailbox/messages/:id',
};

const PAGE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * A mail's own document: its inline styles and remote images (logos), and no script of any kind
 * (script-src 'none' covers inline handlers and javascript: URLs too). It is sandboxed into an opaque
 * origin even when opened directly. The sandbox allows scripts only so that tools driving the browser
 * (axe in the tests) can inspect it: Chromium refuses their probes into a script-less sandbox.
 */
const MESSAGE_CSP = [
  "default-src 'none'",
  "script-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src https: http: data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  'sandbox allow-scripts',
].join('; ');

const filterSchema = {
  querystring: {
    type: 'object',
    additionalProperties: false,
    properties: { to: { type: 'string', maxLength: 320 } },
  },
} as const;

function secure(reply: FastifyReply, csp: string): FastifyReply {
  return reply
    .header('content-security-policy', csp)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store');
}

export async function mailboxPlugin(app: FastifyInstance, { config, db }: { config: ServerConfig; db: Database }): Promise<void> {
  if (config.env !== 'development') {
    const absent = async () => {
      throw notFound();
    };
    for (const path of Object.values(PATHS)) app.get(path, absent);
    return;
  }

  async function entries(to: string | undefined): Promise<MailboxEntry[]> {
    const recipient = to?.trim().toLowerCase();
    const rows = await db
      .select()
      .from(outbox)
      .where(recipient ? eq(sql`lower(${outbox.recipient})`, recipient) : undefined)
      .orderBy(desc(outbox.createdAt))
      .limit(MAILBOX_LIMIT);
    return rows.map((row) => ({
      id: row.id,
      channel: row.channel,
      to: row.recipient,
      subject: row.subject,
      kind: row.kind,
      text: row.text,
      html: row.html,
      links: linksOf(row.html),
      createdAt: row.createdAt.toISOString(),
    }));
  }

  app.get<{ Querystring: { to?: string } }>(PATHS.json, { schema: filterSchema }, async (request, reply) => {
    const list = await entries(request.query.to || undefined);
    secure(reply, "default-src 'none'");
    return list;
  });

  app.get<{ Querystring: { to?: string } }>(PATHS.page, { schema: filterSchema }, async (request, reply) => {
    const filter = request.query.to?.trim() || undefined;
    return secure(reply, PAGE_CSP)
      .type('text/html; charset=utf-8')
      .send(mailboxPage(await entries(filter), filter));
  });

  app.get(PATHS.css, async (_request, reply) => secure(reply, "default-src 'none'").type('text/css; charset=utf-8').send(MAILBOX_CSS));

  app.get<{ Params: { id: string } }>(PATHS.message, async (request, reply) => {
    const [row] = await db.select({ html: outbox.html }).from(outbox).where(eq(outbox.id, request.params.id)).limit(1);
    if (!row?.html) throw notFound('No such message');
    return secure(reply, MESSAGE_CSP).type('text/html; charset=utf-8').send(row.html);
  });
}
