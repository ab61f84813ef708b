// oidc-provider's interaction UI. /interaction/{uid} is on the auth origin so the browser shows its
// interaction cookie (proving the authorization request is its own); it binds the request to
// Foyer's login session and sends the browser to the hosted login screens. The workspace choice
// comes back to /interaction/{uid}/finish/{tenantUserId}, which completes the authorization.
import { federationTypes } from '../../../common/app-config.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import { HttpError } from '../../http/errors.ts';
import { findEnabledMembership } from '../memberships.ts';
import { isAuthenticated, type LoginSession } from '../login-session.ts';
import { grantFor } from './grants.ts';
import { endSingleSignOn } from './single-sign-on.ts';
import type { AuthServiceOptions } from '../service-options.ts';

const uidParams = {
  type: 'object',
  required: ['uid'],
  properties: { uid: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

const finishParams = {
  type: 'object',
  required: ['uid', 'tenantUserId'],
  properties: { ...uidParams.properties, tenantUserId: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

/** How long a workspace chosen without an authorization request waits for the app to send one. */
const CHOICE_TTL_MS = 10 * 60 * 1000;

function recentChoice(session: LoginSession): string | undefined {
  if (!session.chosenTenantUserId || !session.chosenAt) return undefined;
  return Date.now() - session.chosenAt.getTime() <= CHOICE_TTL_MS ? session.chosenTenantUserId : undefined;
}

const requestedPrompts = (interaction: Interaction) => String(interaction.params.prompt ?? '').split(' ');

const expired = () =>
  new HttpError(400, 'AUTHORIZATION_EXPIRED', 'This sign-in request has expired or belongs to another browser; start again from the app');

export async function interactionRoutes(app: FastifyInstance, { context, provider, sessions }: AuthServiceOptions) {
  const { db, config } = context;

  /** The interaction named in the path, if this browser's interaction cookie names it too. */
  async function ownInteraction(request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply): Promise<Interaction> {
    let interaction: Interaction;
    try {
      interaction = await provider.interactionDetails(request.raw, reply.raw);
    } catch {
      throw expired();
    }
    if (interaction.uid !== request.params.uid) throw expired();
    return interaction;
  }

  /** A hosted screen of the app being signed in to: the runtime takes the app from `appId` (any app's own login page). */
  const hostedScreen = (path: string, appId: string) => `${config.urls.ui}${path}?appId=${encodeURIComponent(appId)}`;

  async function finish(
    reply: FastifyReply,
    request: FastifyRequest,
    interaction: Interaction,
    result: Parameters<Provider['interactionFinished']>[2],
  ) {
    reply.hijack();
    // Every finish follows a workspace choice, so an app's prompt=select_account is answered too.
    const answered = requestedPrompts(interaction).includes('select_account') ? { ...result, select_account: {} } : result;
    await provider.interactionFinished(request.raw, reply.raw, answered, { mergeWithLastSubmission: false });
  }

  /**
   * Another workspace picked after prompt=select_account: the single sign-on session of the one left
   * ends and its grant is revoked (as a switch outside an authorization request does, session/routes.ts),
   * and the request resumes without it. oidc-provider would otherwise end the whole sign-in first.
   */
  async function leaveWorkspaceSignedIn(request: FastifyRequest, reply: FastifyReply, interaction: Interaction, chosen: string) {
    const signedInAs = interaction.session?.accountId;
    if (!signedInAs || signedInAs === chosen) return;
    await endSingleSignOn(provider, db, request, reply, String(interaction.params.client_id));
    delete interaction.session;
    await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
  }

  app.get<{ Params: { uid: string } }>('/interaction/:uid', { schema: { params: uidParams } }, async (request, reply) => {
    const interaction = await ownInteraction(request, reply);
    const appId = String(interaction.params.client_id);

    // Signed in already (single sign-on) and only consent is missing: consent is implicit.
    const accountId = interaction.session?.accountId;
    if (interaction.prompt.name === 'consent' && accountId) {
      const membership = await findEnabledMembership(db, accountId, { appId });
      if (membership) {
        const grantId = await grantFor(provider, interaction, membership);
        return finish(reply, request, interaction, { login: { accountId: membership.id }, consent: { grantId } });
      }
    }

    const session = await sessions.read(request);
    const sameApp = session?.appId === appId;
    // The choice is used at most once, by the first authorization request that comes after it.
    if (session && sameApp) await sessions.update(session, { interactionUid: interaction.uid, chosenTenantUserId: null, chosenAt: null });
    else await sessions.start(reply, { appId, interactionUid: interaction.uid }, session);
    if (interaction.params.signup === 'true') return reply.redirect(hostedScreen('/auth/signup', appId), 303);
    // Signed in to this app already (a password just set, a magic link, a signup link, a workspace
    // chosen on a screen no authorization request started): only what is missing is asked —
    // unless the app asked for the credentials again.
    const freshLoginDemanded = requestedPrompts(interaction).includes('login') || interaction.params.max_age !== undefined;
    if (isAuthenticated(session) && sameApp && !freshLoginDemanded) {
      if (interaction.prompt.name === 'select_account') {
        return reply.redirect(`${hostedScreen('/auth/choose-user', appId)}&autoSelect=false`, 303);
      }
      const chosen = recentChoice(session);
      const membership = chosen ? await findEnabledMembership(db, chosen, { userId: session.userId, appId }) : undefined;
      if (membership) {
        const grantId = await grantFor(provider, interaction, membership);
        await sessions.update(session, { interactionUid: null });
        return finish(reply, request, interaction, { login: { accountId: membership.id }, consent: { grantId } });
      }
      return reply.redirect(hostedScreen('/auth/choose-user', appId), 303);
    }
    // force_federation (the /url/login shorthand's forceFederation): straight to that provider.
    const forced = String(interaction.params.force_federation ?? '');
    if ((federationTypes as readonly string[]).includes(forced)) return reply.redirect(`/federated/${forced}/login`, 303);
    return reply.redirect(hostedScreen('/auth/login', appId), 303);
  });

  app.get<{ Params: { uid: string; tenantUserId: string } }>(
    '/interaction/:uid/finish/:tenantUserId',
    { schema: { params: finishParams } },
    async (request, reply) => {
      const interaction = await ownInteraction(request, reply);
      const appId = String(interaction.params.client_id);
      const session = await sessions.read(request);
      if (!isAuthenticated(session) || session.interactionUid !== interaction.uid || session.appId !== appId) {
        throw new HttpError(403, 'FORBIDDEN', 'This workspace is not available');
      }
      const membership = await findEnabledMembership(db, request.params.tenantUserId, { userId: session.userId, appId });
      if (!membership) throw new HttpError(403, 'FORBIDDEN', 'This workspace is not available');

      if (requestedPrompts(interaction).includes('select_account'))
        await leaveWorkspaceSignedIn(request, reply, interaction, membership.id);
      const grantId = await grantFor(provider, interaction, membership);
      await sessions.update(session, { interactionUid: null });
      return finish(reply, request, interaction, { login: { accountId: membership.id }, consent: { grantId } });
    },
  );
}
