// The management API's messages to a member (server/management/messages.ts): a mail in the app's
// brand with the body escaped (no markup gets in), a text message and a one-time code to the member's
// two-factor number, through the original Node client too; and the refusals: another app's key or
// workspace, a member of another workspace, a revoked key, bad input (an http or javascript button),
// no phone number, and a flood (429).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { NblocksClient } from '@nebulr-group/nblocks-ts-client';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { outbox, users } from '../../../server/db/schema.ts';
import { createApiKey, revokeApiKey } from '../../../server/apps/api-keys.ts';
import { MEMBER_MAIL_LIMITS, MEMBER_SMS_LIMITS } from '../../../server/management/messages.ts';
import { insertApp } from '../support/apps.ts';
import { findMembership, type Membership } from '../support/tokens.ts';

let foyer: TestFoyer;
let key: string;
let otherKey: string;
let owner: Membership;
let viewer: Membership;
const PHONE = '+46701234567';
const previousUrl = process.env.NBLOCKS_ACCOUNT_API_URL;

async function call<Body = Record<string, unknown>>(
  method: string,
  path: string,
  options: { body?: unknown; tenant?: string; key?: string } = {},
): Promise<{ status: number; body: Body }> {
  const headers: Record<string, string> = { 'x-api-key': options.key ?? key };
  if (options.tenant !== undefined) headers['x-tenant-id'] = options.tenant;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${foyer.urls.api}/management${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Body };
}

const mailsTo = (email: string) =>
  foyer.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.recipient, email), eq(outbox.kind, 'app-message')))
    .orderBy(desc(outbox.createdAt));
const textsTo = (phone: string) =>
  foyer.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.recipient, phone), eq(outbox.channel, 'sms')));

beforeAll(async () => {
  foyer = await startFoyer();
  ({ key } = await createApiKey(foyer.db, foyer.demo.appId, 'Back end'));
  const otherAppId = await insertApp(foyer, { name: 'Other app' });
  ({ key: otherKey } = await createApiKey(foyer.db, otherAppId, 'Other back end'));
  owner = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Acme');
  viewer = await findMembership(foyer.db, 'viewer@globex.demo.foyer.test', 'Globex');
  await foyer.db.update(users).set({ mfaPhoneNumber: PHONE }).where(eq(users.email, owner.email));
});
afterAll(async () => {
  if (previousUrl === undefined) delete process.env.NBLOCKS_ACCOUNT_API_URL;
  else process.env.NBLOCKS_ACCOUNT_API_URL = previousUrl;
  await foyer?.close();
});

describe('mail to a member', () => {
  it('mails the message in the brand, its body escaped, with the button', async () => {
    const answer = await call('POST', `/tenant/user/${owner.tenantUserId}/email`, {
      tenant: owner.tenantId,
      body: {
        subject: 'Your report <b>is</b> ready',
        emailBody: 'Hello <script>alert(1)</script>\n\nSee "it" & more.',
        ctaUrl: 'https://app.example/reports/1?a=1&b=2',
        ctaTitle: 'Open <the> report',
      },
    });
    expect(answer.status).toBe(204);
    const [mail] = await mailsTo('owner@demo.foyer.test');
    expect(mail).toMatchObject({ subject: 'Your report <b>is</b> ready' });
    expect(mail!.html).not.toContain('<script>');
    expect(mail!.html).not.toContain('<b>');
    expect(mail!.html).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail!.html).toContain('See &quot;it&quot; &amp; more.');
    expect(mail!.html).toContain('href="https://app.example/reports/1?a=1&amp;b=2"');
    expect(mail!.html).toContain('Open &lt;the&gt; report');
    expect(mail!.text).toContain('Open <the> report: https://app.example/reports/1?a=1&b=2');
  });

  it('refuses a button that is not https, one without a title, and an empty body, sending nothing', async () => {
    const before = (await mailsTo('owner@demo.foyer.test')).length;
    for (const ctaUrl of ['http://app.example/x', 'javascript:alert(1)', 'not a url']) {
      const answer = await call<{ details: { path: string; code: string }[] }>('POST', `/tenant/user/${owner.tenantUserId}/email`, {
        tenant: owner.tenantId,
        body: { subject: 'Hi', emailBody: 'Body', ctaUrl, ctaTitle: 'Go' },
      });
      expect(answer.status, ctaUrl).toBe(400);
      expect(answer.body.details.map((detail) => detail.path)).toEqual(['/ctaUrl']);
    }
    const untitled = await call<{ details: { path: string; code: string }[] }>('POST', `/tenant/user/${owner.tenantUserId}/email`, {
      tenant: owner.tenantId,
      body: { subject: 'Hi', emailBody: '   ', ctaUrl: 'https://app.example' },
    });
    expect(untitled.body.details.map((detail) => [detail.path, detail.code])).toEqual([
      ['/emailBody', 'required'],
      ['/ctaTitle', 'ctaTitleRequired'],
    ]);
    expect(
      (await call('POST', `/tenant/user/${owner.tenantUserId}/email`, { tenant: owner.tenantId, body: { subject: 'Hi' } })).status,
    ).toBe(400);
    // Outside production, a button may lead to this machine (a back end under development).
    const local = await call('POST', `/tenant/user/${owner.tenantUserId}/email`, {
      tenant: owner.tenantId,
      body: { subject: 'Local', emailBody: 'Body', ctaUrl: 'http://localhost:5173/x', ctaTitle: 'Go' },
    });
    expect(local.status).toBe(204);
    expect((await mailsTo('owner@demo.foyer.test')).length).toBe(before + 1);
  });

  it("refuses another workspace's member, another app's key and a revoked key like unknown ones", async () => {
    const message = { subject: 'Hi', emailBody: 'Body' };
    // A member of Globex named with Acme's id in x-tenant-id: not a member of that workspace.
    expect(await call('POST', `/tenant/user/${viewer.tenantUserId}/email`, { tenant: owner.tenantId, body: message })).toMatchObject({
      status: 404,
      body: { code: 'NBLOCKS_USER_NOT_FOUND' },
    });
    expect(
      await call('POST', `/tenant/user/${owner.tenantUserId}/email`, { tenant: owner.tenantId, body: message, key: otherKey }),
    ).toMatchObject({
      status: 404,
      body: { code: 'NBLOCKS_NOT_FOUND_TENANT_EXCEPTION' },
    });
    const revoked = await createApiKey(foyer.db, foyer.demo.appId, 'Revoked');
    await revokeApiKey(foyer.db, foyer.demo.appId, revoked.id);
    expect(
      (await call('POST', `/tenant/user/${owner.tenantUserId}/email`, { tenant: owner.tenantId, body: message, key: revoked.key })).status,
    ).toBe(401);
    expect(await mailsTo('viewer@globex.demo.foyer.test')).toEqual([]);
  });

  it('answers a flood to one member with 429 once the limit is reached', async () => {
    const perMember = MEMBER_MAIL_LIMITS.find((limit) => limit.per.includes('username'))!.max;
    const sent = (await mailsTo('viewer@globex.demo.foyer.test')).length;
    const statuses: number[] = [];
    for (let index = 0; index <= perMember; index += 1) {
      statuses.push(
        (
          await call('POST', `/tenant/user/${viewer.tenantUserId}/email`, {
            tenant: viewer.tenantId,
            body: { subject: `Flood ${index}`, emailBody: 'Body' },
          })
        ).status,
      );
    }
    expect(statuses.slice(0, perMember).every((status) => status === 204)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await mailsTo('viewer@globex.demo.foyer.test')).length).toBe(sent + perMember);
  });
});

describe('text messages to a member', () => {
  it('texts the two-factor number, and sends a code it answers', async () => {
    expect(
      await call('POST', `/tenant/user/${owner.tenantUserId}/sms`, { tenant: owner.tenantId, body: { text: 'Your order shipped' } }),
    ).toMatchObject({
      status: 204,
    });
    const otp = await call<{ id: string; code: string }>('POST', `/tenant/user/${owner.tenantUserId}/smsOtp`, { tenant: owner.tenantId });
    expect(otp).toMatchObject({ status: 200, body: { id: expect.any(String), code: expect.stringMatching(/^\d{6}$/) } });
    const texts = await textsTo(PHONE);
    expect(texts.map((text) => text.text)).toEqual(expect.arrayContaining(['Your order shipped', expect.stringContaining(otp.body.code)]));
    expect(texts.find((text) => text.id === otp.body.id)?.text).toContain(otp.body.code);
  });

  it('refuses a member without a number, an empty text, and a flood', async () => {
    expect(await call('POST', `/tenant/user/${viewer.tenantUserId}/sms`, { tenant: viewer.tenantId, body: { text: 'Hi' } })).toMatchObject({
      status: 409,
      body: { error: 'NO_PHONE_NUMBER' },
    });
    expect(await call('POST', `/tenant/user/${viewer.tenantUserId}/smsOtp`, { tenant: viewer.tenantId })).toMatchObject({ status: 409 });
    expect((await call('POST', `/tenant/user/${owner.tenantUserId}/sms`, { tenant: owner.tenantId, body: { text: '  ' } })).status).toBe(
      400,
    );
    const perMember = MEMBER_SMS_LIMITS.find((limit) => limit.per.includes('username'))!.max;
    const statuses: number[] = [];
    for (let index = 0; index < perMember; index += 1) {
      statuses.push(
        (await call('POST', `/tenant/user/${owner.tenantUserId}/sms`, { tenant: owner.tenantId, body: { text: `Flood ${index}` } })).status,
      );
    }
    // Two of the member's allowance went to the previous test.
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === 204).length).toBe(perMember - 2);
    const refused = await call('POST', `/tenant/user/${owner.tenantUserId}/smsOtp`, { tenant: owner.tenantId });
    expect(refused.status).toBe(429);
  });
});

describe('through the original Node client', () => {
  it('mails a member with tenant(id).user(id).sendEmail', async () => {
    process.env.NBLOCKS_ACCOUNT_API_URL = `${foyer.urls.api}/management`;
    const { key: clientKey } = await createApiKey(foyer.db, foyer.demo.appId, 'Original client');
    const nblocks = new NblocksClient({ appId: foyer.demo.appId, apiKey: clientKey, stage: 'DEV' });
    const member = nblocks.tenant(owner.tenantId).user(owner.tenantUserId);
    await member.sendEmail({ subject: 'From the original client', emailBody: 'Sent with sendEmail' });
    expect((await mailsTo('owner@demo.foyer.test')).map((mail) => mail.subject)).toContain('From the original client');
  });
});
