// The payment fields of the GraphQL API (schema/api.graphql): the app's plans and taxes for anyone
// who names the app, the caller's workspace's payment details, and the owner's plan choice.
import type { Resolvers } from '../generated/resolvers.ts';
import { appOf, memberOf } from '../access/caller.ts';
import { paymentOptions, tenantPaymentDetails } from './views.ts';
import { setTenantPlanDetails } from './service.ts';

export const paymentResolvers: Resolvers = {
  Query: {
    getPaymentOptionsAnonymous: (_parent, _args, { caller }) => paymentOptions(appOf(caller)),
    getTenantPaymentDetails: (_parent, _args, { db, caller, payments }) => {
      const member = memberOf(caller);
      return tenantPaymentDetails(payments, db, member.app, member.tenantId);
    },
  },
  Mutation: {
    setTenantPlanDetails: (_parent, { details }, { db, caller, payments, clientIp }) =>
      setTenantPlanDetails(payments, db, memberOf(caller), details, clientIp),
  },
};
