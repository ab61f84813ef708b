// The contract's authorization table and the schema assembly, without a server.
import { readFileSync } from 'node:fs';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { authorize } from '../../../server/graphql/access/authorization.ts';
import { readRequirements } from '../../../server/graphql/access/requirements.ts';
import type { Caller, MemberCaller } from '../../../server/auth/caller-kinds.ts';
import { capabilityResolvers, mergeResolvers } from '../../../server/graphql/resolvers.ts';
import { buildFoyerSchema, SCHEMA_FILE } from '../../../server/graphql/schema.ts';
import type { Privilege } from '../../../common/roles.ts';

const DIRECTIVES = `enum Privilege { ANONYMOUS AUTHENTICATED USER_READ USER_WRITE TENANT_READ TENANT_WRITE }
directive @requires(privilege: Privilege!) on FIELD_DEFINITION`;

const member = (privileges: Privilege[]): MemberCaller => ({
  kind: 'member',
  app: {} as MemberCaller['app'],
  tenantId: 't',
  tenantUserId: 'tu',
  userId: 'u',
  role: 'VIEWER',
  privileges: new Set(privileges),
});

describe('schema/api.graphql', () => {
  it('names a privilege on every Query and Mutation field, as docs/ORIGINAL-CONTRACT.md 2.2 maps them', () => {
    const schema = buildSchema(readFileSync(SCHEMA_FILE, 'utf8'));
    const requirements = readRequirements(schema);
    const rootFields = [schema.getQueryType()!, schema.getMutationType()!].flatMap((root) =>
      Object.keys(root.getFields()).map((name) => `${root.name}.${name}`),
    );
    expect(rootFields.filter((field) => !requirements.has(field))).toEqual([]);
    expect(Object.fromEntries(requirements)).toMatchObject({
      'Query.getAppAnonymous': 'ANONYMOUS',
      'Query.getTenant': 'TENANT_READ',
      'Query.getMe': 'AUTHENTICATED',
      'Query.listUserRoles': 'USER_READ',
      'Mutation.updateTenant': 'TENANT_WRITE',
      'Mutation.createUsers': 'USER_WRITE',
    });
  });

  it('builds with every capability resolver, and no two capabilities resolve the same field', () => {
    expect(() => buildFoyerSchema(mergeResolvers(capabilityResolvers))).not.toThrow();
    expect(() => mergeResolvers([...capabilityResolvers, capabilityResolvers[0]!])).toThrow(/resolved by two capabilities/);
  });

  it('refuses a resolver for a field the contract lacks', () => {
    const typo = { Query: { getMee: () => null } } as never;
    expect(() => buildFoyerSchema(mergeResolvers([typo]))).toThrow(/getMee/);
  });
});

describe('requirements', () => {
  it('leaves a field without @requires out of the table, and authorize denies it to everyone', () => {
    const schema = buildSchema(`${DIRECTIVES} type Query { open: String hidden: String @requires(privilege: ANONYMOUS) }`);
    const requirements = readRequirements(schema);
    expect(requirements.has('Query.open')).toBe(false);
    const owner = member(['AUTHENTICATED', 'USER_READ', 'USER_WRITE', 'TENANT_READ', 'TENANT_WRITE']);
    expect(authorize(requirements.get('Query.open'), owner)?.code).toBe('FORBIDDEN');
  });
});

describe('authorize', () => {
  const anonymous: Caller = { kind: 'anonymous', app: {} as MemberCaller['app'] };
  const table: [string, Parameters<typeof authorize>[0], Caller, string | null][] = [
    ['anonymous app, ANONYMOUS', 'ANONYMOUS', anonymous, null],
    ['member, ANONYMOUS', 'ANONYMOUS', member(['AUTHENTICATED']), null],
    ['no app, ANONYMOUS', 'ANONYMOUS', { kind: 'none' }, 'UNKNOWN_APP'],
    ['unknown app, ANONYMOUS', 'ANONYMOUS', { kind: 'unknownApp' }, 'UNKNOWN_APP'],
    ['rejected token, ANONYMOUS', 'ANONYMOUS', { kind: 'rejected', reason: 'expired' }, 'UNAUTHENTICATED'],
    ['anonymous app, AUTHENTICATED', 'AUTHENTICATED', anonymous, 'UNAUTHENTICATED'],
    ['member with it', 'USER_READ', member(['AUTHENTICATED', 'USER_READ']), null],
    ['member without it', 'TENANT_WRITE', member(['AUTHENTICATED', 'USER_READ', 'TENANT_READ']), 'FORBIDDEN'],
  ];
  it.each(table)('%s', (_label, required, caller, code) => {
    expect(authorize(required, caller)?.code ?? null).toBe(code);
  });
});
