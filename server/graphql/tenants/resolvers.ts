import type { Resolvers } from '../generated/resolvers.ts';
import { memberOf } from '../access/caller.ts';
import { getTenant, getTenantSummary } from './service.ts';

export const tenantResolvers: Resolvers = {
  Query: {
    getTenantAnonymous: (_parent, _args, { db, caller }) => {
      const member = memberOf(caller);
      return getTenantSummary(db, member.app.id, member.tenantId);
    },
    getTenant: (_parent, _args, { db, caller }) => {
      const member = memberOf(caller);
      return getTenant(db, member.app.id, member.tenantId);
    },
  },
};
