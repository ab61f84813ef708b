import type { Resolvers } from '../generated/resolvers.ts';
import { memberOf } from '../access/caller.ts';
import { getTenant, getTenantSummary, updateTenant } from './service.ts';
import { attributeCatalog } from '../attributes/catalog.ts';
import { assetsBaseOf } from '../../../common/logos.ts';

export const tenantResolvers: Resolvers = {
  Query: {
    getTenantAnonymous: (_parent, _args, { db, caller }) => {
      const member = memberOf(caller);
      return getTenantSummary(db, member.app.id, member.tenantId);
    },
    getTenant: (_parent, _args, { db, caller, payments }) => {
      const member = memberOf(caller);
      return getTenant(payments, db, member.app, member.tenantId);
    },
  },
  Mutation: {
    updateTenant: (_parent, { tenant }, { db, caller, clientIp, payments, config }) => {
      const member = memberOf(caller);
      return updateTenant(
        payments,
        db,
        member.app,
        member.tenantId,
        tenant,
        {
          tenantUserId: member.tenantUserId,
          userId: member.userId,
          ip: clientIp,
        },
        attributeCatalog(config),
        assetsBaseOf(config.urls.api, member.app.id),
      );
    },
  },
};
