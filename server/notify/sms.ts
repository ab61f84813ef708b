// The SMS channel: a provider interface, so a real SMS gateway plugs in by configuration, and the
// default provider that keeps messages in the outbox (channel 'sms') for the development mailbox.
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import type { SmsKind } from './types.ts';

export interface Sms {
  appId: string;
  /** An E.164 number. */
  to: string;
  kind: SmsKind;
  text: string;
}

export interface SmsProvider {
  name: string;
  /** Resolves with the provider's id for the message; rejects when delivery fails. */
  deliver(sms: Sms): Promise<string>;
  close(): Promise<void>;
}

/** The text (a code) is kept only for the development mailbox, as with mail (server/notify/transports.ts). */
export function outboxSmsProvider(db: Database, options: { keepText: boolean }): SmsProvider {
  return {
    name: 'outbox',
    async deliver(sms) {
      const id = randomUUID();
      await db.insert(outbox).values({
        id,
        appId: sms.appId,
        channel: 'sms',
        recipient: sms.to,
        kind: sms.kind,
        subject: '',
        text: options.keepText ? sms.text : '',
      });
      return id;
    },
    async close() {},
  };
}
