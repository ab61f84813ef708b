// Without SMTP_URL mail goes to the outbox, and the development mailbox on the hosted UI origin lists
// it (HTML page and JSON); in production the mailbox does not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { createNotifier } from '../../../server/notify/service.ts';
import type { Notifier, OutgoingMessage } from '../../../server/notify/types.ts';

interface MailboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  links: string[];
  createdAt: string;
}

let foyer: TestFoyer;
let notifier: Notifier;

beforeAll(async () => {
  foyer = await startFoyer();
  notifier = createNotifier({ config: foyer.config, db: foyer.db });
});

afterAll(async () => {
  await notifier?.close();
  await foyer?.close();
});

async function mailbox(query = ''): Promise<MailboxMessage[]> {
  const response = await fetch(`${foyer.urls.ui}/dev/mailbox.json${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as MailboxMessage[];
}

function send(message: Partial<OutgoingMessage> & Pick<OutgoingMessage, 'to' | 'kind'>) {
  return notifier.send({
    appId: foyer.demo.appId,
    link: `${foyer.urls.ui}/auth/set-password/t-${message.to}`,
    expiresInSeconds: 3600,
    ...message,
  });
}

describe('the outbox and the development mailbox', () => {
  it('stores mail in the outbox and lists it newest first with its absolute links', async () => {
    const first = await send({ to: 'first@example.com', kind: 'signup' });
    const second = await send({ to: 'second@example.com', kind: 'magic-link', link: `${foyer.urls.auth}/auth/magic-link/m1` });
    expect(first).toMatchObject({ delivered: true, transport: 'outbox' });
    expect(second).toMatchObject({ delivered: true, transport: 'outbox' });

    const listed = await mailbox();
    const ours = listed.filter((message) => ['first@example.com', 'second@example.com'].includes(message.to));
    expect(ours.map((message) => message.to)).toEqual(['second@example.com', 'first@example.com']);
    const [magic, signup] = ours as [MailboxMessage, MailboxMessage];
    expect(magic).toMatchObject({
      id: second.delivered ? second.id : '',
      subject: 'Your sign-in link for Demo app',
      links: [`${foyer.urls.auth}/auth/magic-link/m1`],
    });
    expect(magic.text).toContain(`Sign in: ${foyer.urls.auth}/auth/magic-link/m1`);
    expect(magic.html).toContain('<html lang="en">');
    expect(Date.parse(magic.createdAt)).toBeGreaterThanOrEqual(Date.parse(signup.createdAt));
    expect(signup.links).toEqual([`${foyer.urls.ui}/auth/set-password/t-first@example.com`]);
    expect(new Date(signup.createdAt).toISOString()).toBe(signup.createdAt);
  });

  it('filters by recipient, ignoring case', async () => {
    await send({ to: 'Filter.Me@example.com', kind: 'reset' });
    await send({ to: 'someone.else@example.com', kind: 'reset' });
    const filtered = await mailbox('?to=filter.me@EXAMPLE.com');
    expect(filtered.map((message) => message.to)).toEqual(['Filter.Me@example.com']);
    expect(await mailbox('?to=nobody-here@example.com')).toEqual([]);
    const twice = await fetch(`${foyer.urls.ui}/dev/mailbox.json?to=a@example.com&to=b@example.com`);
    expect(twice.status).toBe(400);
    expect(await twice.json()).toMatchObject({ statusCode: 400, error: 'BAD_REQUEST' });
  });

  it('lists a reset requested through POST /auth/password', async () => {
    const email = foyer.demo.users[0]!.email;
    const answer = await fetch(`${foyer.urls.auth}/auth/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': foyer.demo.appId },
      body: JSON.stringify({ username: email }),
    });
    expect(answer.status).toBe(200);
    // The mail goes out after the answer.
    await expect.poll(async () => (await mailbox(`?to=${encodeURIComponent(email)}`)).length).toBe(1);
    const [reset] = await mailbox(`?to=${encodeURIComponent(email)}`);
    expect(reset!.subject).toBe('Reset your Demo app password');
    expect(reset!.links).toHaveLength(1);
    expect(reset!.links[0]).toMatch(new RegExp(`^${foyer.urls.ui}/auth/set-password/[A-Za-z0-9_-]{43}$`));
    const token = reset!.links[0]!.split('/').pop();
    expect((await fetch(`${foyer.urls.auth}/auth/password/${token}`)).status).toBe(200);
  });

  it('serves an HTML page with the messages, their links as anchors and the rendered mail in a sandboxed frame', async () => {
    const workspace = '<script>alert(1)</script>';
    const delivery = await send({ to: 'page@example.com', kind: 'invite-existing', workspace });
    const id = delivery.delivered ? delivery.id : '';
    const response = await fetch(`${foyer.urls.ui}/dev/mailbox?to=page@example.com`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const page = await response.text();
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('<title>Development mailbox · Foyer</title>');
    expect(page).toContain('<h1>Development mailbox</h1>');
    expect(page).toContain(`<article aria-labelledby="message-${id}">`);
    expect(page).toContain(`<h2 id="message-${id}">You were invited to “&lt;script&gt;alert(1)&lt;/script&gt;”</h2>`);
    expect(page).not.toContain('<script>');
    const link = `${foyer.urls.ui}/auth/set-password/t-page@example.com`;
    expect(page).toContain(`<a href="${link}">${link}</a>`);
    expect(page).toContain(`<iframe sandbox="allow-scripts" src="/dev/mailbox/messages/${id}"`);
    expect(page).toContain('value="page@example.com"');

    const frame = await fetch(`${foyer.urls.ui}/dev/mailbox/messages/${id}`);
    expect(frame.status).toBe(200);
    // Sandboxed into an opaque origin, and no script may run in it.
    const frameCsp = frame.headers.get('content-security-policy') ?? '';
    expect(frameCsp).toMatch(/(^|; )sandbox allow-scripts(;|$)/);
    expect(frameCsp).toContain("script-src 'none'");
    expect(frameCsp).toContain("default-src 'none'");
    expect(await frame.text()).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');

    const css = await fetch(`${foyer.urls.ui}/dev/mailbox.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await fetch(`${foyer.urls.ui}/dev/mailbox/messages/no-such-message`)).status).toBe(404);
  });

  it('says so when no mail matches', async () => {
    const page = await (await fetch(`${foyer.urls.ui}/dev/mailbox?to=nobody-at-all@example.com`)).text();
    expect(page).toContain('<p role="status">No mail yet.</p>');
    expect(page).not.toContain('<article');
  });
});

describe('the mailbox in production', () => {
  let production: TestFoyer;
  beforeAll(async () => {
    production = await startFoyer({ env: 'production' });
  });
  afterAll(() => production?.close());

  it.each(['/dev/mailbox', '/dev/mailbox.json', '/dev/mailbox.css', '/dev/mailbox/messages/anything'])(
    'answers 404 at %s',
    async (path) => {
      const response = await fetch(`${production.urls.ui}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ statusCode: 404, message: 'Not found', error: 'NOT_FOUND' });
    },
  );
});
