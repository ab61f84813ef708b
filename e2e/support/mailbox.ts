// Reads the development mailbox of the test server: mails are sent after the request that caused them
// has been answered, so the helpers wait for the next message to arrive.
import { expect } from 'vitest';

export interface MailboxMessage {
  id: string;
  /** 'email', or 'sms' for text messages (no subject, no html). */
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  kind?: string;
  text: string;
  html: string | null;
  links: string[];
  createdAt: string;
}

export async function messagesTo(uiUrl: string, to: string): Promise<MailboxMessage[]> {
  const response = await fetch(`${uiUrl}/dev/mailbox.json?to=${encodeURIComponent(to)}`);
  if (!response.ok) throw new Error(`mailbox answered ${response.status}`);
  return (await response.json()) as MailboxMessage[];
}

/**
 * Waits for a message to `to` beyond the `seen` ones (newest first in the mailbox) and answers its link
 * matching `pattern`.
 */
export async function nextLink(uiUrl: string, to: string, pattern: RegExp, seen = 0): Promise<string> {
  let messages: MailboxMessage[] = [];
  await expect.poll(async () => (messages = await messagesTo(uiUrl, to)).length, { timeout: 15_000, interval: 200 }).toBeGreaterThan(seen);
  const link = messages[0]!.links.find((candidate) => pattern.test(candidate));
  if (!link) throw new Error(`no link matching ${pattern} in "${messages[0]!.subject}": ${messages[0]!.links.join(', ')}`);
  return link;
}

/** Waits for a text message to `phoneNumber` beyond the `seen` ones and answers the six-digit code in it. */
export async function nextSmsCode(uiUrl: string, phoneNumber: string, seen = 0): Promise<string> {
  let messages: MailboxMessage[] = [];
  await expect
    .poll(async () => (messages = await messagesTo(uiUrl, phoneNumber)).length, { timeout: 15_000, interval: 200 })
    .toBeGreaterThan(seen);
  const code = /\b(\d{6})\b/.exec(messages[0]!.text)?.[1];
  if (!code) throw new Error(`no code in the text message "${messages[0]!.text}"`);
  return code;
}
