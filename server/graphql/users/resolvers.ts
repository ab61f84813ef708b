import type { Resolvers } from '../generated/resolvers.ts';
import { memberOf } from '../access/caller.ts';
import { deleteUser, sendPasswordResetLink, updateUser } from './administration.ts';
import { countUsers, listUsers, usersPage } from './list.ts';
import { getMember, updateMe } from './service.ts';

export const userResolvers: Resolvers = {
  Query: {
    getMe: (_parent, _args, { db, caller }) => {
      const member = memberOf(caller);
      return getMember(db, member.app, member.tenantId, member.tenantUserId);
    },
    listUsers: (_parent, args, { db, caller }) => listUsers(db, memberOf(caller), args),
    usersPage: (_parent, args, { db, caller, config }) => usersPage(db, config.secret, memberOf(caller), args),
    countUsers: (_parent, { search }, { db, caller }) => countUsers(db, memberOf(caller), search),
  },
  Mutation: {
    updateMe: (_parent, { user }, context) => updateMe(context, memberOf(context.caller), user),
    updateUser: (_parent, { user }, context) => updateUser(context, memberOf(context.caller), user),
    deleteUser: (_parent, { userId }, context) => deleteUser(context, memberOf(context.caller), userId),
    sendPasswordResetLink: (_parent, { userId }, context) => sendPasswordResetLink(context, memberOf(context.caller), userId),
  },
};
