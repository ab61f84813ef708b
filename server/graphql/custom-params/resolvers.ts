import type { Resolvers } from '../generated/resolvers.ts';
import { appOf } from '../access/caller.ts';
import { customParamsConfig } from './service.ts';

export const customParamResolvers: Resolvers = {
  Query: {
    getTenantUserCustomParamsConfigAnonymous: (_parent, _args, { caller }) => customParamsConfig(appOf(caller).settings),
  },
};
