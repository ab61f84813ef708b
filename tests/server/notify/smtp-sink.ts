// A real SMTP server on loopback (smtp-server) that parses every mail it receives (mailparser), so
// tests read back exactly what a mail client would get.
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from '../../../server/testing.ts';

export interface ReceivedMail {
  envelopeTo: string[];
  mail: ParsedMail;
}

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  /** Resolves with the first mail (already received or still to come) whose envelope names `to`. */
  waitFor(to: string): Promise<ReceivedMail>;
  /** Resolves once a delivery to `to` was attempted and refused (with `rejectRecipients`). */
  waitForRefusal(to: string): Promise<void>;
  close(): Promise<void>;
}

/** `rejectRecipients`: answer RCPT TO with a permanent failure, as a server refusing the address would. */
export async function startSmtpSink(options: { rejectRecipients?: boolean } = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const waiting: Array<{ to: string; resolve(mail: ReceivedMail): void }> = [];
  const refused: string[] = [];
  const waitingRefusals: Array<{ to: string; resolve(): void }> = [];
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: nodemailer would otherwise upgrade to TLS against a self-signed certificate.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.rejectRecipients) {
        refused.push(address.address);
        for (const waiter of waitingRefusals.filter((w) => w.to === address.address)) {
          waitingRefusals.splice(waitingRefusals.indexOf(waiter), 1);
          waiter.resolve();
        }
        const refusal = new Error('Mailbox unavailable') as Error & { responseCode: number };
        refusal.responseCode = 550;
        callback(refusal);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          const entry = { envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address), mail };
          received.push(entry);
          for (const waiter of waiting.filter((w) => entry.envelopeTo.includes(w.to))) {
            waiting.splice(waiting.indexOf(waiter), 1);
            waiter.resolve(entry);
          }
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitFor(to) {
      const already = received.find((entry) => entry.envelopeTo.includes(to));
      if (already) return Promise.resolve(already);
      return new Promise((resolve) => waiting.push({ to, resolve }));
    },
    waitForRefusal(to) {
      if (refused.includes(to)) return Promise.resolve();
      return new Promise((resolve) => waitingRefusals.push({ to, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
