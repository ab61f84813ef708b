import type { Resolvers } from '../generated/resolvers.ts';
import { memberOf } from '../access/caller.ts';
import { getMember } from './service.ts';

export const userResolvers: Resolvers = {
  Query: {
    getMe: (_parent, _args, { db, caller }) => {
      const member = memberOf(caller);
      return getMember(db, member.tenantId, member.tenantUserId);
    },
  },
};
