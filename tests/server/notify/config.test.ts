// The mail settings: SMTP_URL (smtp/smtps only, never echoed back since it may hold a password) and
// FOYER_MAIL_FROM.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.ts';

describe('mail settings', () => {
  it('sends to the outbox from Foyer <no-reply@localhost> unless told otherwise', () => {
    const config = loadConfig({});
    expect(config.smtpUrl).toBeUndefined();
    expect(config.mailFrom).toBe('Foyer <no-reply@localhost>');
    expect(loadConfig({ SMTP_URL: '' }).smtpUrl).toBeUndefined();
  });

  it('takes an smtp or smtps URL and a sender address', () => {
    const config = loadConfig({ SMTP_URL: 'smtps://user:pass@mail.example.com:465', FOYER_MAIL_FROM: 'Acme <hi@acme.test>' });
    expect(config.smtpUrl).toBe('smtps://user:pass@mail.example.com:465');
    expect(config.mailFrom).toBe('Acme <hi@acme.test>');
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }).smtpUrl).toBe('smtp://127.0.0.1:2525');
  });

  it('refuses any other SMTP_URL without repeating it', () => {
    for (const value of ['http://user:secret@mail.example.com', 'mail.example.com:25', 'direct:?secret']) {
      let message = '';
      try {
        loadConfig({ SMTP_URL: value });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^Invalid SMTP_URL/);
      expect(message).not.toContain('secret');
    }
  });
});
