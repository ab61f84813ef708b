// The mail module: every message goes through here, into the outbox (no SMTP_URL).
import { randomUUID } from 'node:crypto';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import type { Notifier, OutgoingMessage } from './types.ts';

export function createNotifier({ db }: { config: ServerConfig; db: Database }): Notifier {
  return {
    async send(message: OutgoingMessage) {
      await db.insert(outbox).values({
        id: randomUUID(),
        appId: message.appId,
        recipient: message.to,
        kind: message.kind,
        subject: message.kind,
        text: message.link,
      });
    },
  };
}
