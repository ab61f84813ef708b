// The auth service's login session: a random id in an httpOnly cookie on the auth origin, stored
// only as a SHA-256 hash. It remembers the app, the pending authorization (interaction) and, once
// every factor passed, the user — everything between "start sign-in" and the handover.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FoyerContext } from '../context.ts';
import { loginSessions } from '../db/schema.ts';
import { fixedWrite, write } from '../db/write-batch.ts';

export const LOGIN_SESSION_COOKIE = 'foyer_login';
export const LOGIN_SESSION_TTL_SECONDS = 24 * 60 * 60;

export type LoginSession = typeof loginSessions.$inferSelect;

/** What login_sessions.id_hash holds for a cookie value. */
export const hashId = (id: string) => createHash('sha256').update(id).digest('hex');

/** Fixed (server/db/write-batch.ts): every password sign-in opens a session, and ends the previous one when there is one. */
const insertSession = fixedWrite<LoginSession>((db) =>
  db.insert(loginSessions).values({
    idHash: sql.placeholder('idHash'),
    appId: sql.placeholder('appId'),
    userId: sql.placeholder('userId'),
    interactionUid: sql.placeholder('interactionUid'),
    authenticatedAt: sql.placeholder('authenticatedAt'),
    chosenTenantUserId: sql.placeholder('chosenTenantUserId'),
    chosenAt: sql.placeholder('chosenAt'),
    expiresAt: sql.placeholder('expiresAt'),
    createdAt: sql.placeholder('createdAt'),
  }),
);
const deleteSession = fixedWrite<{ idHash: string }>((db) =>
  db.delete(loginSessions).where(eq(loginSessions.idHash, sql.placeholder('idHash'))),
);

export class LoginSessions {
  /** The live session with an id's hash, built once: every sign-in from the hosted screens reads the browser's session first. */
  private readonly readByHash;

  constructor(private readonly context: FoyerContext) {
    this.readByHash = context.db
      .select()
      .from(loginSessions)
      .where(and(eq(loginSessions.idHash, sql.placeholder('idHash')), gt(loginSessions.expiresAt, sql`now()`)))
      .limit(1)
      .prepare('login_session_read');
  }

  cookieOptions() {
    return {
      httpOnly: true,
      sameSite: 'lax' as const,
      path: '/',
      secure: this.context.config.urls.auth.startsWith('https:'),
    };
  }

  /** The browser's live session, if its cookie names one. */
  read(request: FastifyRequest): Promise<LoginSession | undefined> {
    return this.readById(request.cookies[LOGIN_SESSION_COOKIE]);
  }

  /** The live session a cookie value names (for callers without a Fastify request, such as oidc-provider's). */
  async readById(id: string | undefined): Promise<LoginSession | undefined> {
    if (!id || id.length > 100) return undefined;
    const [row] = await this.readByHash.execute({ idHash: hashId(id) });
    return row;
  }

  /**
   * Opens a fresh session (new id, new cookie) and ends `previous`. Called when a browser starts
   * signing in to an app and again when it authenticates, so an id seen before login is worthless after.
   */
  async start(
    reply: FastifyReply,
    fields: { appId: string; userId?: string | null; authenticated?: boolean; interactionUid?: string | null },
    previous?: LoginSession,
  ): Promise<LoginSession> {
    const { id, session } = await this.create(fields);
    if (previous) await this.remove(previous);
    reply.setCookie(LOGIN_SESSION_COOKIE, id, { ...this.cookieOptions(), expires: session.expiresAt });
    return session;
  }

  /**
   * A new session row and its id, without a cookie (a legacy token's session, server/auth-proxy, never
   * gets one). Written with the request's other writes when it batches them (a password sign-in:
   * server/db/write-batch.ts), so every column is set here rather than by the database.
   */
  async create(fields: { appId: string; userId?: string | null; authenticated?: boolean; interactionUid?: string | null }) {
    const id = randomBytes(32).toString('base64url');
    const now = new Date();
    const session: LoginSession = {
      idHash: hashId(id),
      appId: fields.appId,
      userId: fields.userId ?? null,
      interactionUid: fields.interactionUid ?? null,
      authenticatedAt: fields.authenticated ? now : null,
      chosenTenantUserId: null,
      chosenAt: null,
      expiresAt: new Date(now.getTime() + LOGIN_SESSION_TTL_SECONDS * 1000),
      createdAt: now,
    };
    await write(this.context.db, insertSession(this.context.db, session));
    return { id, session };
  }

  async update(
    session: LoginSession,
    fields: { interactionUid?: string | null; chosenTenantUserId?: string | null; chosenAt?: Date | null },
  ): Promise<void> {
    await this.context.db.update(loginSessions).set(fields).where(eq(loginSessions.idHash, session.idHash));
  }

  async remove(session: LoginSession): Promise<void> {
    await write(this.context.db, deleteSession(this.context.db, { idHash: session.idHash }));
  }

  /** Ends whatever session the browser holds and clears its cookie. */
  async end(request: FastifyRequest, reply: FastifyReply): Promise<LoginSession | undefined> {
    const session = await this.read(request);
    if (session) await this.remove(session);
    if (request.cookies[LOGIN_SESSION_COOKIE] !== undefined) {
      reply.clearCookie(LOGIN_SESSION_COOKIE, this.cookieOptions());
    }
    return session;
  }

  async purgeExpired(): Promise<void> {
    await this.context.db.delete(loginSessions).where(lt(loginSessions.expiresAt, sql`now()`));
  }
}

/** Signed in with every required factor, so a workspace may be chosen. */
export function isAuthenticated(session: LoginSession | undefined): session is LoginSession & { userId: string } {
  return Boolean(session?.userId && session.authenticatedAt);
}
