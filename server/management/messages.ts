// The management API's messages to a member (ORIGINAL-CONTRACT.md section 4): a mail the app's back
// end writes (rendered in the app's brand by server/notify/render.ts, every part escaped as text), a
// text message, and a one-time code by text message that the back end checks itself. Mail and text go
// through the same notifier as Foyer's own, the texts through the SMS sender of two-factor, to the
// member's two-factor number. Each is limited per app and per member, counted on the audit trail.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FoyerContext } from '../context.ts';
import type { AppKeyCaller } from '../auth/app-key-caller.ts';
import { recordWithinLimits, type RequestLimit } from '../audit/limits.ts';
import type { AuditType } from '../audit/service.ts';
import { tenantUsers, users } from '../db/schema.ts';
import { recipientLocale } from '../notify/recipient-locale.ts';
import { keyedIssue, plainIssue, type FieldIssue } from '../http/field-issues.ts';
import { badInput, ManagementError, unknownUser } from './errors.ts';
import { ErrorBody, IdParams, MemberEmailBody, MemberSmsBody, NoContent, SmsOtpResponse, TenantHeaders } from './schemas.ts';

export interface MessageRouteContext {
  /** The key's app acting on the workspace of x-tenant-id, or 404 when it is not one of the app's. */
  tenantActor(request: FastifyRequest): Promise<AppKeyCaller>;
  tags: string[];
  security: Record<string, string[]>[];
}

const refusals = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody, 502: ErrorBody };

/** Mail: a hundred an hour for an app's back end, ten an hour to one member. */
export const MEMBER_MAIL_LIMITS: readonly RequestLimit[] = [
  { max: 100, windowMinutes: 60, per: ['app'] },
  { max: 10, windowMinutes: 60, per: ['app', 'username'] },
];
/** Text messages cost money: fifty an hour for an app's back end, five an hour to one member. */
export const MEMBER_SMS_LIMITS: readonly RequestLimit[] = [
  { max: 50, windowMinutes: 60, per: ['app'] },
  { max: 5, windowMinutes: 60, per: ['app', 'username'] },
];

/** How long the back end should accept a code it asked for: what the text message tells the member. */
export const SMS_OTP_TTL_SECONDS = 10 * 60;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function registerMessageRoutes(parent: FastifyInstance, context: FoyerContext, routes: MessageRouteContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { config, db, notifier } = context;
  const { tenantActor, tags, security } = routes;

  /** The member of the actor's workspace and the person behind it. */
  async function recipientOf(actor: AppKeyCaller, tenantUserId: string) {
    const [row] = await db
      .select({ user: users })
      .from(tenantUsers)
      .innerJoin(users, eq(users.id, tenantUsers.userId))
      .where(and(eq(tenantUsers.id, tenantUserId), eq(tenantUsers.tenantId, actor.tenantId)))
      .limit(1);
    if (!row) throw unknownUser();
    return row.user;
  }

  async function withinLimits(
    request: FastifyRequest,
    actor: AppKeyCaller,
    type: AuditType,
    limits: readonly RequestLimit[],
    email: string,
  ) {
    const allowed = await recordWithinLimits(db, type, { appId: actor.app.id, ip: request.ip, username: email.toLowerCase() }, limits);
    if (!allowed) throw new ManagementError(429, 'TOO_MANY_REQUESTS', 'Too many messages; try again later');
  }

  /** A button's address: https, or http to this machine outside production. */
  function ctaProblem(url: string): FieldIssue | null {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return plainIssue('enterWebAddress');
    }
    if (parsed.protocol === 'https:') return null;
    if (parsed.protocol === 'http:' && config.env !== 'production' && LOOPBACK_HOSTS.has(parsed.hostname)) return null;
    return keyedIssue('httpsRequired', 'Enter an address starting with https://');
  }

  const userRoute = (summary: string) => ({ tags, security, summary, headers: TenantHeaders, params: IdParams });

  app.post(
    '/tenant/user/:id/email',
    {
      schema: {
        ...userRoute("Mail the member a message in the app's brand (plain text, with an optional button)"),
        body: MemberEmailBody,
        response: { 204: NoContent, ...refusals },
      },
    },
    async (request, reply) => {
      const actor = await tenantActor(request);
      const { subject, emailBody, ctaUrl, ctaTitle } = request.body;
      const problems: Record<string, FieldIssue> = {};
      if (subject.trim() === '') problems.subject = plainIssue('required');
      if (emailBody.trim() === '') problems.emailBody = plainIssue('required');
      const urlProblem = ctaUrl === undefined ? null : ctaProblem(ctaUrl.trim());
      if (urlProblem) problems.ctaUrl = urlProblem;
      if (ctaUrl !== undefined && !ctaTitle?.trim()) problems.ctaTitle = keyedIssue('ctaTitleRequired', 'Name the button');
      if (ctaUrl === undefined && ctaTitle !== undefined) problems.ctaUrl = keyedIssue('ctaUrlRequired', 'Give the button an address');
      if (Object.keys(problems).length > 0) throw badInput(problems);
      const user = await recipientOf(actor, request.params.id);
      await withinLimits(request, actor, 'user.message_mailed', MEMBER_MAIL_LIMITS, user.email);
      const delivery = await notifier.sendAppMessage({
        appId: actor.app.id,
        to: user.email,
        locale: await recipientLocale(db, actor.app.id, user),
        subject: subject.trim(),
        body: emailBody,
        ...(ctaUrl !== undefined ? { cta: { url: ctaUrl.trim(), title: ctaTitle!.trim() } } : {}),
      });
      if (!delivery.delivered) throw new ManagementError(502, 'NOT_DELIVERED', 'The mail could not be sent; try again');
      return reply.status(204).send(null);
    },
  );

  /** The member's two-factor number, the only one Foyer keeps for a person. */
  function phoneOf(user: typeof users.$inferSelect): string {
    if (!user.mfaPhoneNumber) {
      throw new ManagementError(409, 'NO_PHONE_NUMBER', 'The member has no phone number: they add one when they set up two-factor sign-in');
    }
    return user.mfaPhoneNumber;
  }

  app.post(
    '/tenant/user/:id/sms',
    {
      schema: {
        ...userRoute('Text the member at their two-factor number'),
        body: MemberSmsBody,
        response: { 204: NoContent, ...refusals },
      },
    },
    async (request, reply) => {
      const actor = await tenantActor(request);
      const text = request.body.text.trim();
      if (text === '') throw badInput({ text: plainIssue('required') });
      const user = await recipientOf(actor, request.params.id);
      const to = phoneOf(user);
      await withinLimits(request, actor, 'user.sms_sent', MEMBER_SMS_LIMITS, user.email);
      const delivery = await notifier.sendSms({ appId: actor.app.id, to, kind: 'app-message', text });
      if (!delivery.delivered) throw new ManagementError(502, 'NOT_DELIVERED', 'The text message could not be sent; try again');
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/tenant/user/:id/smsOtp',
    {
      schema: {
        ...userRoute('Text the member a six-digit code and answer it, for the back end to check (valid 10 minutes, as the text says)'),
        response: { 200: SmsOtpResponse, ...refusals },
      },
    },
    async (request) => {
      const actor = await tenantActor(request);
      const user = await recipientOf(actor, request.params.id);
      const to = phoneOf(user);
      await withinLimits(request, actor, 'user.sms_sent', MEMBER_SMS_LIMITS, user.email);
      const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
      const delivery = await notifier.sendSms({
        appId: actor.app.id,
        to,
        kind: 'mfa-code',
        locale: await recipientLocale(db, actor.app.id, user),
        code,
        expiresInSeconds: SMS_OTP_TTL_SECONDS,
      });
      if (!delivery.delivered) throw new ManagementError(502, 'NOT_DELIVERED', 'The text message could not be sent; try again');
      return { id: delivery.id, code };
    },
  );
}
