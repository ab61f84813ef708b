// The SMS channel: translated text messages through the provider interface, the outbox provider by
// default (listed by the development mailbox), and failures reported without the number or the code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { outbox } from '../../../server/db/schema.ts';
import { createNotifier, type NotifyLogger } from '../../../server/notify/service.ts';
import type { Sms, SmsProvider } from '../../../server/notify/sms.ts';

let foyer: TestFoyer;

beforeAll(async () => {
  foyer = await startFoyer();
});

afterAll(async () => {
  await foyer?.close();
});

const message = { kind: 'mfa-code' as const, code: '123456', expiresInSeconds: 600 };

describe('text messages', () => {
  it('go to the outbox by default, translated, and show in the development mailbox', async () => {
    const notifier = createNotifier({ config: foyer.config, db: foyer.db });
    const english = await notifier.sendSms({ ...message, appId: foyer.demo.appId, to: '+46700000001' });
    const swedish = await notifier.sendSms({ ...message, appId: foyer.demo.appId, to: '+46700000002', locale: 'sv-SE' });
    expect(english).toMatchObject({ delivered: true, provider: 'outbox' });
    expect(swedish).toMatchObject({ delivered: true, provider: 'outbox' });
    await notifier.close();

    const rows = await foyer.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.channel, 'sms'), eq(outbox.kind, 'mfa-code')));
    expect(rows.map((row) => [row.recipient, row.text]).sort()).toEqual([
      ['+46700000001', 'Demo app: your security code is 123456. It expires in 10 minutes.'],
      ['+46700000002', 'Demo app: din säkerhetskod är 123456. Den slutar gälla om 10 minuter.'],
    ]);
    const mailbox = await fetch(`${foyer.urls.ui}/dev/mailbox.json?to=${encodeURIComponent('+46700000001')}`);
    expect(await mailbox.json()).toEqual([
      expect.objectContaining({
        channel: 'sms',
        to: '+46700000001',
        kind: 'mfa-code',
        text: rows.find((row) => row.recipient === '+46700000001')!.text,
      }),
    ]);
    const page = await (await fetch(`${foyer.urls.ui}/dev/mailbox`)).text();
    expect(page).toContain('Demo app: your security code is 123456.');
  });

  it('go through a configured provider, and a failure is logged without the number or the code', async () => {
    const sent: Sms[] = [];
    const provider: SmsProvider = {
      name: 'gateway',
      async deliver(sms) {
        if (sms.to === '+46700000009') throw new Error('gateway unreachable');
        sent.push(sms);
        return 'gateway-id-1';
      },
      async close() {},
    };
    const entries: unknown[] = [];
    const record = (...args: unknown[]) => void entries.push(args);
    const log = { error: record, warn: record } as unknown as NotifyLogger;
    const notifier = createNotifier({ config: foyer.config, db: foyer.db, log, smsProvider: provider });

    expect(await notifier.sendSms({ ...message, appId: foyer.demo.appId, to: '+46700000003' })).toEqual({
      delivered: true,
      provider: 'gateway',
      id: 'gateway-id-1',
    });
    expect(sent).toEqual([
      {
        appId: foyer.demo.appId,
        to: '+46700000003',
        kind: 'mfa-code',
        text: 'Demo app: your security code is 123456. It expires in 10 minutes.',
      },
    ]);

    expect(await notifier.sendSms({ ...message, appId: foyer.demo.appId, to: '+46700000009' })).toEqual({
      delivered: false,
      reason: 'failed',
    });
    expect(await notifier.sendSms({ ...message, appId: 'no-such-app', to: '+46700000003' })).toEqual({
      delivered: false,
      reason: 'unknown-app',
    });
    const logged = JSON.stringify(entries);
    expect(logged).toContain('gateway unreachable');
    expect(logged).not.toContain('+46700000009');
    expect(logged).not.toContain('123456');
    await notifier.close();
  });
});
