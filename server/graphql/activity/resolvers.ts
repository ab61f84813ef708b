import type { Resolvers } from '../generated/resolvers.ts';
import { memberOf } from '../access/caller.ts';
import { myActivity, workspaceLog } from './service.ts';

export const activityResolvers: Resolvers = {
  Query: {
    myActivity: (_parent, { limit }, { db, caller }) => myActivity(db, memberOf(caller), limit),
    workspaceLog: (_parent, filter, { db, caller }) => workspaceLog(db, memberOf(caller), filter),
  },
};
