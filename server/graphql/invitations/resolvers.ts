import type { Resolvers } from '../generated/resolvers.ts';
import { memberOf } from '../access/caller.ts';
import { inviteUsers, resendInvitation } from './service.ts';

export const invitationResolvers: Resolvers = {
  Mutation: {
    createUsers: (_parent, { userNames }, context) => inviteUsers(context, memberOf(context.caller), userNames),
    resendInvitation: (_parent, { userId }, context) => resendInvitation(context, memberOf(context.caller), userId),
  },
};
