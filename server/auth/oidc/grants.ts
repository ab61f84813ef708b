// Consent is implicit in Foyer: an app's users agree to the app by signing in to it. Finishing an
// interaction records a Grant for the requested OpenID scopes and the role's privileges.
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import { privilegesOf } from '../../../common/roles.ts';
import type { Membership } from '../memberships.ts';
import { appResource } from '../access-tokens.ts';
import { SCOPES } from './claims.ts';

export async function grantFor(provider: Provider, interaction: Interaction, membership: Membership): Promise<string> {
  const clientId = String(interaction.params.client_id);
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  const grant =
    existing && existing.accountId === membership.id && existing.clientId === clientId
      ? existing
      : new provider.Grant({ accountId: membership.id, clientId });
  const client = await provider.Client.find(clientId);
  if (client) grant.client = client;
  const requested = String(interaction.params.scope ?? '').split(' ');
  const scopes = SCOPES.filter((scope) => requested.includes(scope));
  if (scopes.length) grant.addOIDCScope(scopes.join(' '));
  grant.addResourceScope(appResource(clientId), privilegesOf(membership.role).join(' '));
  return grant.save();
}
