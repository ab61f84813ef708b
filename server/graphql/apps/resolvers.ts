import type { Resolvers } from '../generated/resolvers.ts';
import { appOf } from '../access/caller.ts';
import { publicAppConfig } from './service.ts';

export const appResolvers: Resolvers = {
  Query: {
    getAppAnonymous: (_parent, _args, { caller }) => publicAppConfig(appOf(caller)),
  },
};
