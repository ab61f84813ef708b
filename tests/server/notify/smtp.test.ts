// Real SMTP: Foyer with SMTP_URL pointing at a local smtp-server, mail read back with mailparser.
// The reset mail is triggered through POST /auth/password and its link is then used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { freePort, startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apps, users } from '../../../server/db/schema.ts';
import { createNotifier, type NotifyLogger } from '../../../server/notify/service.ts';
import { linksOf } from '../../../server/notify/render.ts';
import { startSmtpSink, type SmtpSink } from './smtp-sink.ts';

let sink: SmtpSink;
let foyer: TestFoyer;

beforeAll(async () => {
  sink = await startSmtpSink();
  foyer = await startFoyer({ smtpUrl: sink.url, mailFrom: 'Demo mail <mail@demo.foyer.test>' });
  const [demoApp] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
  await foyer.db
    .update(apps)
    .set({
      settings: {
        ...demoApp!.settings,
        logo: 'https://cdn.demo.foyer.test/logo.png',
        branding: { colors: { primary: '#0a7d3b' } },
      },
    })
    .where(eq(apps.id, foyer.demo.appId));
});

afterAll(async () => {
  await foyer?.close();
  await sink?.close();
});

function requestReset(email: string) {
  return fetch(`${foyer.urls.auth}/auth/password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-id': foyer.demo.appId },
    body: JSON.stringify({ username: email }),
  });
}

/** A logger that keeps what it was told, to check what a failure leaves in the log. */
function recordingLogger(): NotifyLogger & { entries: unknown[] } {
  const entries: unknown[] = [];
  const record = (...args: unknown[]) => void entries.push(args);
  return { entries, error: record, warn: record } as unknown as NotifyLogger & { entries: unknown[] };
}

describe('mail over SMTP', () => {
  it('delivers a branded reset mail with HTML and text parts whose link sets the password', async () => {
    const email = foyer.demo.users[1]!.email;
    const answer = await requestReset(email);
    expect(answer.status).toBe(200);

    const { mail, envelopeTo } = await sink.waitFor(email);
    expect(envelopeTo).toEqual([email]);
    expect(mail.from?.value).toEqual([{ name: 'Demo mail', address: 'mail@demo.foyer.test' }]);
    expect(mail.subject).toBe('Reset your Demo app password');
    expect(mail.html).toContain('<img src="https://cdn.demo.foyer.test/logo.png" alt="Demo app"');
    expect(mail.html).toMatch(/background:#0a7d3b;color:#ffffff/);
    expect(mail.text).toContain('Reset your password');

    const links = linksOf(mail.html || '');
    expect(links).toHaveLength(1);
    const link = links[0]!;
    expect(link).toMatch(new RegExp(`^${foyer.urls.ui}/auth/set-password/[A-Za-z0-9_-]{43}$`));
    expect(mail.text).toContain(`Choose a new password: ${link}`);

    const token = link.split('/').pop()!;
    const read = await fetch(`${foyer.urls.auth}/auth/password/${token}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ email, purpose: 'reset', passwordChosen: false });

    const set = await fetch(`${foyer.urls.auth}/auth/password`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'Fresh-Passw0rd!' }),
    });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ session: true });
    expect((await fetch(`${foyer.urls.auth}/auth/password/${token}`)).status).toBe(400);
  });

  it("writes the reset mail in the recipient's language", async () => {
    const email = foyer.demo.users[2]!.email;
    await foyer.db.update(users).set({ locale: 'sv' }).where(eq(users.email, email));
    expect((await requestReset(email)).status).toBe(200);

    const { mail } = await sink.waitFor(email);
    expect(mail.subject).toBe('Återställ ditt lösenord för Demo app');
    expect(mail.html).toContain('<html lang="sv">');
    expect(mail.text).toMatch(new RegExp(`Välj ett nytt lösenord: ${foyer.urls.ui}/auth/set-password/[A-Za-z0-9_-]{43}`));
  });

  it('delivers a hostile workspace name escaped in HTML and literal in text', async () => {
    const notifier = createNotifier({ config: foyer.config, db: foyer.db });
    const workspace = '<script>alert(1)</script>"Evil" & Co';
    const to = 'invitee@example.com';
    const delivery = await notifier.send({
      appId: foyer.demo.appId,
      to,
      kind: 'invite',
      link: `${foyer.urls.ui}/auth/set-password/invite-token`,
      expiresInSeconds: 3600,
      workspace,
    });
    expect(delivery).toMatchObject({ delivered: true, transport: 'smtp' });
    await notifier.close();

    const { mail } = await sink.waitFor(to);
    expect(mail.subject).toBe(`You were invited to “${workspace}”`);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;Evil&quot; &amp; Co');
    expect(mail.text).toContain(`You were invited to join “${workspace}” on Demo app.`);
  });

  it('reports and logs a failed delivery without the message, and never rejects', async () => {
    const log = recordingLogger();
    const closedPort = await freePort();
    const notifier = createNotifier({ config: { ...foyer.config, smtpUrl: `smtp://127.0.0.1:${closedPort}` }, db: foyer.db, log });
    const link = `${foyer.urls.ui}/auth/set-password/secret-token-value`;
    const delivery = await notifier.send({
      appId: foyer.demo.appId,
      to: 'nobody@example.com',
      kind: 'reset',
      link,
      expiresInSeconds: 3600,
    });
    expect(delivery).toEqual({ delivered: false, reason: 'failed' });
    const logged = JSON.stringify(log.entries);
    expect(logged).toContain('mail delivery failed');
    expect(logged).toContain('ECONNREFUSED');
    expect(logged).not.toContain('secret-token-value');
    expect(logged).not.toContain('Choose a new password');
    await notifier.close();
  });

  it('refuses, without sending, a link that is not absolute http(s), a list of recipients and an unknown app', async () => {
    const log = recordingLogger();
    const notifier = createNotifier({ config: foyer.config, db: foyer.db, log });
    const base = {
      appId: foyer.demo.appId,
      to: 'refused@example.com',
      kind: 'reset' as const,
      link: `${foyer.urls.ui}/x`,
      expiresInSeconds: 3600,
    };
    expect(await notifier.send({ ...base, link: 'javascript:alert(1)' })).toEqual({ delivered: false, reason: 'refused' });
    expect(await notifier.send({ ...base, to: 'refused@example.com, other@example.com' })).toEqual({ delivered: false, reason: 'refused' });
    expect(await notifier.send({ ...base, to: 'Refused <refused@example.com>' })).toEqual({ delivered: false, reason: 'refused' });
    expect(await notifier.send({ ...base, appId: 'no-such-app' })).toEqual({ delivered: false, reason: 'unknown-app' });
    expect(JSON.stringify(log.entries)).not.toContain('javascript:');
    await notifier.close();
    expect(sink.received.some((entry) => entry.envelopeTo.some((to) => to.startsWith('refused@')))).toBe(false);
  });
});

describe('a refusing SMTP server', () => {
  let refusing: SmtpSink;
  let broken: TestFoyer;

  beforeAll(async () => {
    refusing = await startSmtpSink({ rejectRecipients: true });
    broken = await startFoyer({ smtpUrl: refusing.url });
  });

  afterAll(async () => {
    await broken?.close();
    await refusing?.close();
  });

  it('leaves the request that sent the mail answered and the server running', async () => {
    const email = broken.demo.users[0]!.email;
    const answer = await fetch(`${broken.urls.auth}/auth/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': broken.demo.appId },
      body: JSON.stringify({ username: email }),
    });
    expect(answer.status).toBe(200);
    await refusing.waitForRefusal(email);
    const after = await fetch(`${broken.urls.auth}/auth/password/unknown-token`);
    expect(after.status).toBe(400);
    expect(await after.json()).toMatchObject({ error: 'LINK_EXPIRED' });
  });

  it('answers a direct send with the failure and logs the server reply', async () => {
    const log = recordingLogger();
    const notifier = createNotifier({ config: broken.config, db: broken.db, log });
    const delivery = await notifier.send({
      appId: broken.demo.appId,
      to: 'refused-direct@example.com',
      kind: 'magic-link',
      link: `${broken.urls.auth}/auth/magic-link/secret-magic-token`,
      expiresInSeconds: 15 * 60,
    });
    expect(delivery).toEqual({ delivered: false, reason: 'failed' });
    const logged = JSON.stringify(log.entries);
    expect(logged).toContain('550');
    expect(logged).not.toContain('secret-magic-token');
    await notifier.close();
  });
});
