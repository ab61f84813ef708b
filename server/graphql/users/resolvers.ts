import type { Resolvers } from '../generated/resolvers.ts';
import { memberOf } from '../access/caller.ts';
import { getMember, updateMe } from './service.ts';

export const userResolvers: Resolvers = {
  Query: {
    getMe: (_parent, _args, { db, caller }) => {
      const member = memberOf(caller);
      return getMember(db, member.app, member.tenantId, member.tenantUserId);
    },
  },
  Mutation: {
    updateMe: (_parent, { user }, { db, caller }) => updateMe(db, memberOf(caller), user),
  },
};
