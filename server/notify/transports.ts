// Where a rendered message goes: an SMTP server (SMTP_URL) through nodemailer, or the outbox table
// that the development mailbox reads. Both get the same rendered message.
import { randomUUID } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import type { Database } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import type { RenderedMessage } from './render.ts';
import type { MessageKind } from './types.ts';

export interface Envelope {
  appId: string;
  to: string;
  kind: MessageKind | 'app-message';
}

export interface Transport {
  name: 'smtp' | 'outbox';
  /** Resolves with an id for the delivered (or stored) message; rejects when delivery fails. */
  deliver(envelope: Envelope, message: RenderedMessage): Promise<string>;
  close(): Promise<void>;
}

/** Without these, a silent SMTP server would hold a request's follow-up work for minutes. */
const SMTP_TIMEOUTS_MS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function smtpTransport(options: { url: string; from: string }): Transport {
  // nodemailer is loaded with the first message rather than with the server (npm run bench -- server-start).
  let transporter: Promise<Transporter> | undefined;
  const open = () =>
    (transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({ url: options.url, ...SMTP_TIMEOUTS_MS }),
    ));
  return {
    name: 'smtp',
    async deliver(envelope, message) {
      const info = await (
        await open()
      ).sendMail({
        from: options.from,
        to: envelope.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: { 'Auto-Submitted': 'auto-generated', 'Content-Language': message.language },
      });
      return info.messageId;
    },
    async close() {
      if (transporter) (await transporter).close();
    },
  };
}

/**
 * The outbox keeps a message's body (whose link is a credential) only for the development mailbox
 * (server/notify/mailbox.ts); in production it records that a mail was sent, to whom, and its subject.
 */
export function outboxTransport(db: Database, options: { keepBodies: boolean }): Transport {
  return {
    name: 'outbox',
    async deliver(envelope, message) {
      const id = randomUUID();
      await db.insert(outbox).values({
        id,
        appId: envelope.appId,
        channel: 'email',
        recipient: envelope.to,
        kind: envelope.kind,
        subject: message.subject,
        text: options.keepBodies ? message.text : '',
        html: options.keepBodies ? message.html : null,
      });
      return id;
    },
    async close() {},
  };
}
