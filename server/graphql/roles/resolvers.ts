import type { Resolvers } from '../generated/resolvers.ts';
import { ROLES } from '../../../common/roles.ts';

export const roleResolvers: Resolvers = {
  Query: {
    // Every role of the fixed hierarchy; which of them a caller may grant is updateUser's concern.
    listUserRoles: () => [...ROLES],
  },
};
