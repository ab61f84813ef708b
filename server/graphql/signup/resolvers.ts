import type { Resolvers } from '../generated/resolvers.ts';
import { appOf } from '../access/caller.ts';
import { signUp } from './service.ts';

export const signupResolvers: Resolvers = {
  Mutation: {
    createTenantAnonymous: (_parent, { tenant }, context) => signUp(context, appOf(context.caller), tenant),
  },
};
