// Every capability's resolvers, merged. Adding a capability = one folder with its resolvers and
// service, plus one line here.
import type { Resolvers } from './generated/resolvers.ts';
import { activityResolvers } from './activity/resolvers.ts';
import { attributeResolvers } from './attributes/resolvers.ts';
import { appResolvers } from './apps/resolvers.ts';
import { customParamResolvers } from './custom-params/resolvers.ts';
import { invitationResolvers } from './invitations/resolvers.ts';
import { roleResolvers } from './roles/resolvers.ts';
import { signupResolvers } from './signup/resolvers.ts';
import { tenantResolvers } from './tenants/resolvers.ts';
import { userResolvers } from './users/resolvers.ts';
import { paymentResolvers } from './payments/resolvers.ts';
import { enterpriseResolvers } from './enterprise/resolvers.ts';

export const capabilityResolvers: Resolvers[] = [
  appResolvers,
  tenantResolvers,
  userResolvers,
  invitationResolvers,
  roleResolvers,
  signupResolvers,
  customParamResolvers,
  activityResolvers,
  paymentResolvers,
  attributeResolvers,
  enterpriseResolvers,
];

/** Merges resolver maps type by type; two capabilities resolving the same field is a startup error. */
export function mergeResolvers(modules: Resolvers[]): Resolvers {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const module of modules) {
    for (const [typeName, fields] of Object.entries(module)) {
      const target = (merged[typeName] ??= {});
      for (const [fieldName, resolver] of Object.entries(fields as Record<string, unknown>)) {
        if (fieldName in target) throw new Error(`${typeName}.${fieldName} is resolved by two capabilities`);
        target[fieldName] = resolver;
      }
    }
  }
  return merged as Resolvers;
}
