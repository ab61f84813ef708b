// The mail module: every message Foyer sends is branded for its app, translated into the
// recipient's language and handed to one transport, SMTP when SMTP_URL is set, otherwise the
// outbox. `send` never rejects, so a request may fire it after answering: failures are logged
// (without the message, whose link is a credential) and reported in the result.
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { apps } from '../db/schema.ts';
import { brandOf, type Brand } from './brand.ts';
import { RefusedMessage, renderAppMessage, renderMessage, type RenderedMessage } from './render.ts';
import { createTranslator, type Translator } from './texts.ts';
import { outboxTransport, smtpTransport, type Envelope, type Transport } from './transports.ts';
import { outboxSmsProvider, type SmsProvider } from './sms.ts';
import type { Delivery, Notifier, OutgoingAppMessage, OutgoingMessage, OutgoingSms, SmsDelivery } from './types.ts';

export type NotifyLogger = Pick<FastifyBaseLogger, 'error' | 'warn'>;

/** One plain address: a list or a display name would let a caller reach more than the recipient. */
const SINGLE_ADDRESS = /^[^\s@,;<>"()[\]\\]+@[^\s@,;<>"()[\]\\]+$/;
const MAX_ADDRESS_LENGTH = 320;

export function createNotifier({
  config,
  db,
  log,
  smsProvider = outboxSmsProvider(db, { keepText: config.env !== 'production' }),
}: {
  config: ServerConfig;
  db: Database;
  log?: NotifyLogger;
  /** A real SMS gateway; without one, text messages go to the outbox. */
  smsProvider?: SmsProvider;
}): Notifier {
  const transport: Transport = config.smtpUrl
    ? smtpTransport({ url: config.smtpUrl, from: config.mailFrom })
    : outboxTransport(db, { keepBodies: config.env !== 'production' });

  /** Renders with the app's brand and delivers; refusals and failures are logged and answered. */
  async function deliverMail(
    envelope: Envelope,
    render: (brand: Brand, translator: Translator) => RenderedMessage,
    locale: string | null | undefined,
  ): Promise<Delivery> {
    const about = { appId: envelope.appId, kind: envelope.kind, to: envelope.to, transport: transport.name };
    try {
      if (envelope.to.length > MAX_ADDRESS_LENGTH || !SINGLE_ADDRESS.test(envelope.to)) {
        throw new RefusedMessage('The recipient must be one e-mail address');
      }
      const [app] = await db.select({ name: apps.name, settings: apps.settings }).from(apps).where(eq(apps.id, envelope.appId)).limit(1);
      if (!app) {
        log?.warn(about, 'mail not sent: unknown app');
        return { delivered: false, reason: 'unknown-app' };
      }
      const rendered = render(brandOf(app), createTranslator(locale, app.settings.translations));
      const id = await transport.deliver(envelope, rendered);
      return { delivered: true, transport: transport.name, id };
    } catch (error) {
      if (error instanceof RefusedMessage) {
        log?.error({ ...about, reason: error.message }, 'mail refused');
        return { delivered: false, reason: 'refused' };
      }
      log?.error({ ...about, failure: describeFailure(error) }, 'mail delivery failed');
      return { delivered: false, reason: 'failed' };
    }
  }

  function send(message: OutgoingMessage): Promise<Delivery> {
    return deliverMail(message, (brand, translator) => renderMessage(message, brand, translator), message.locale);
  }

  function sendAppMessage(message: OutgoingAppMessage): Promise<Delivery> {
    return deliverMail(
      { appId: message.appId, to: message.to, kind: 'app-message' },
      (brand, translator) => renderAppMessage(message, brand, translator),
      message.locale,
    );
  }

  async function sendSms(message: OutgoingSms): Promise<SmsDelivery> {
    // The number is personal data and the text holds a credential: neither is logged.
    const about = { appId: message.appId, kind: message.kind, provider: smsProvider.name };
    try {
      const [app] = await db.select({ name: apps.name, settings: apps.settings }).from(apps).where(eq(apps.id, message.appId)).limit(1);
      if (!app) {
        log?.warn(about, 'sms not sent: unknown app');
        return { delivered: false, reason: 'unknown-app' };
      }
      const translator = createTranslator(message.locale, app.settings.translations);
      const text =
        message.kind === 'mfa-code'
          ? translator.t('sms.mfaCode', { app: app.name, code: message.code, minutes: Math.round(message.expiresInSeconds / 60) })
          : message.text;
      const id = await smsProvider.deliver({ appId: message.appId, to: message.to, kind: message.kind, text });
      return { delivered: true, provider: smsProvider.name, id };
    } catch (error) {
      log?.error({ ...about, failure: describeFailure(error) }, 'sms delivery failed');
      return { delivered: false, reason: 'failed' };
    }
  }

  return {
    send,
    sendAppMessage,
    sendSms,
    close: async () => {
      await Promise.all([transport.close(), smsProvider.close()]);
    },
  };
}

/** What an operator needs from a failure: nodemailer's code and the server's reply, never the message. */
function describeFailure(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, command, responseCode, response } = error as Error & {
    code?: string;
    command?: string;
    responseCode?: number;
    response?: string;
  };
  return { message: error.message, code, command, responseCode, response };
}
