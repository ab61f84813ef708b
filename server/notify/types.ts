// What the rest of the server asks of the mail module. Every message Foyer sends is one of these
// kinds; the module brands it for the app, translates it into the recipient's locale, and delivers it
// over SMTP (SMTP_URL) or into the outbox.

export type MessageKind =
  /** A password reset link (/auth/set-password/{token}). */
  | 'reset'
  /** A new identity's signup link: set (or confirm) the password and sign in. */
  | 'signup'
  /** Someone signed up with an e-mail that already has an account: say what happened, link to confirm. */
  | 'signup-existing'
  /** A social signup on an e-mail its provider did not verify: confirm the address (in the same browser) to finish. */
  | 'federated-signup'
  /** A magic sign-in link, valid 15 minutes. */
  | 'magic-link'
  /** A new identity was invited to {workspace}: set a password. */
  | 'invite'
  /** An existing identity was invited to {workspace}: sign in. */
  | 'invite-existing'
  /** A workspace claims {domain} for enterprise sign-in: confirm at an address of the domain (server/auth/enterprise/domains.ts). */
  | 'domain-proof';

export interface OutgoingMessage {
  appId: string;
  to: string;
  kind: MessageKind;
  /** Language of the recipient (tenant or user locale); falls back to English. */
  locale?: string | null;
  /** The call to action, absolute URL. */
  link: string;
  /** Workspace name, for invitations and domain proofs. */
  workspace?: string;
  /** The e-mail domain a domain proof is about. */
  domain?: string;
  /** How long the link works: its sender knows (a token's lifetime, server/auth/tokens/service.ts; a configured reset TTL). */
  expiresInSeconds: number;
}

/** A message an app's back end writes to one member (the management API): its own subject and text. */
export interface OutgoingAppMessage {
  appId: string;
  to: string;
  /** Language of the recipient, for the footer and the fallback line; falls back to English. */
  locale?: string | null;
  subject: string;
  /** Plain text; a blank line parts paragraphs. */
  body: string;
  /** A button to an absolute http(s) address. */
  cta?: { url: string; title: string };
}

/** Every text message Foyer sends: a security code (two-factor, or one an app's back end asked for), or an app's own text. */
export type SmsKind = 'mfa-code' | 'app-message';

interface SmsBase {
  appId: string;
  /** An E.164 number (validated by the caller). */
  to: string;
  /** Language of the recipient; falls back to English. */
  locale?: string | null;
}

export type OutgoingSms =
  (SmsBase & { kind: 'mfa-code'; code: string; expiresInSeconds: number }) | (SmsBase & { kind: 'app-message'; text: string });

/** What became of a message. `send` never rejects: a failure is logged and answered here. */
export type Delivery =
  { delivered: true; transport: 'smtp' | 'outbox'; id: string } | { delivered: false; reason: 'unknown-app' | 'refused' | 'failed' };

export type SmsDelivery = { delivered: true; provider: string; id: string } | { delivered: false; reason: 'unknown-app' | 'failed' };

export interface Notifier {
  /** Renders and hands the message to the transport; resolves when delivered, stored, or given up (logged). */
  send(message: OutgoingMessage): Promise<Delivery>;
  /** Renders an app's own message to a member and hands it to the transport; never rejects either. */
  sendAppMessage(message: OutgoingAppMessage): Promise<Delivery>;
  /** Translates and hands a text message to the SMS provider; never rejects either. */
  sendSms(message: OutgoingSms): Promise<SmsDelivery>;
  /** Releases the transport's connections. */
  close(): Promise<void>;
}
