import type { Resolvers } from '../generated/resolvers.ts';
import { memberOf } from '../access/caller.ts';
import { inviteUsers } from './service.ts';

export const invitationResolvers: Resolvers = {
  Mutation: {
    createUsers: (_parent, { userNames }, context) => inviteUsers(context, memberOf(context.caller), userNames),
  },
};
