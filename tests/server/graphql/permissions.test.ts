// Who may do what to whom in the users table, tried over the API by every role and by a caller
// without a token: every mutation and the list, each role acting on each role, each role granting
// each role; plus ids of other workspaces, the last owner, acting on oneself and races between
// owners. Every refusal is checked to have changed nothing at all.
import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { apps, outbox, tenantUsers, users, userTokens } from '../../../server/db/schema.ts';
import type { AppSettings } from '../../../server/db/app-settings.ts';
import type { Role } from '../../../common/roles.ts';
import { errorCodes, type GraphQLAnswer } from '../support/graphql.ts';
import { findMembership, type Membership } from '../support/tokens.ts';
import { addMember, ask, auditOf, createWorkspace, membershipOf, snapshot, type Member } from './users-workspace.ts';

const ROLES: Role[] = ['OWNER', 'ADMIN', 'MANAGER', 'VIEWER'];

// The rules, written out here independently of common/roles.ts.
const MANAGES: Record<Role, Role[]> = {
  OWNER: ['OWNER', 'ADMIN', 'MANAGER', 'VIEWER'],
  ADMIN: ['ADMIN', 'MANAGER', 'VIEWER'],
  MANAGER: ['MANAGER', 'VIEWER'],
  VIEWER: [],
};
const GRANTS: Record<Role, Role[]> = {
  OWNER: ['OWNER', 'ADMIN', 'MANAGER', 'VIEWER'],
  ADMIN: ['ADMIN', 'MANAGER', 'VIEWER'],
  MANAGER: ['MANAGER', 'VIEWER'],
  VIEWER: [],
};

let foyer: TestFoyer;
let matrixId: string;
const actors = {} as Record<Role, Member>;
let acmeAdmin: Membership;

beforeAll(async () => {
  foyer = await startFoyer();
  matrixId = await createWorkspace(foyer, 'Matrix');
  for (const role of ROLES) actors[role] = await addMember(foyer, matrixId, { role, firstName: role.toLowerCase() });
  acmeAdmin = await findMembership(foyer.db, 'admin@acme.demo.foyer.test', 'Acme');
});
afterAll(() => foyer?.close());

const UPDATE = 'mutation ($user: UserInput!) { updateUser(user: $user) { id role enabled } }';
const DELETE = 'mutation ($id: String!) { deleteUser(userId: $id) }';
const RESET = 'mutation ($id: String!) { sendPasswordResetLink(userId: $id) }';
const INVITE = 'mutation ($names: [String!]!) { createUsers(userNames: $names) { id email role } }';
const LIST = '{ listUsers { id } countUsers }';

type Operation = 'disable' | 'demote' | 'delete' | 'reset';
const operations: Record<Operation, (target: string) => [string, Record<string, unknown>]> = {
  disable: (id) => [UPDATE, { user: { id, enabled: false } }],
  demote: (id) => [UPDATE, { user: { id, role: 'VIEWER' } }],
  delete: (id) => [DELETE, { id }],
  reset: (id) => [RESET, { id }],
};

const run = (actor: Membership | null, operation: Operation, target: string) => ask(foyer, actor, ...operations[operation](target));

/** Runs `attempt` and checks it was refused with `status` and `code` and left everything as it was. */
async function expectRefused(tenantId: string, attempt: () => Promise<GraphQLAnswer>, status: number, code: string) {
  const before = await snapshot(foyer, tenantId);
  const answer = await attempt();
  expect(answer.status).toBe(status);
  expect(errorCodes(answer)).toEqual([code]);
  expect(answer.body.data ?? null).toBeNull();
  expect(await snapshot(foyer, tenantId)).toEqual(before);
}

async function mailTo(address: string) {
  return foyer.db.select().from(outbox).where(eq(outbox.recipient, address));
}

describe('acting on members: every role on every role', () => {
  const cases = ROLES.flatMap((actor) => ROLES.map((target) => [actor, target] as const));

  describe.each(['disable', 'delete', 'reset'] as const)('%s', (operation) => {
    it.each(cases)('%s on %s', async (actorRole, targetRole) => {
      const target = await addMember(foyer, matrixId, { role: targetRole });
      const actor = actors[actorRole];
      if (!MANAGES[actorRole].includes(targetRole)) {
        await expectRefused(matrixId, () => run(actor, operation, target.tenantUserId), 403, 'FORBIDDEN');
        return;
      }
      const answer = await run(actor, operation, target.tenantUserId);
      expect(answer.body.errors).toBeUndefined();
      if (operation === 'disable') {
        expect(answer.body.data?.updateUser).toEqual({ id: target.tenantUserId, role: targetRole, enabled: false });
        expect(await membershipOf(foyer, target.tenantUserId)).toMatchObject({ enabled: false, role: targetRole });
        const [event] = (await auditOf(foyer, 'user.updated', actor)).slice(-1);
        expect(event?.detail).toMatchObject({
          tenantId: matrixId,
          target: { tenantUserId: target.tenantUserId, userId: target.userId, email: target.email },
          changes: { enabled: { from: true, to: false } },
        });
      } else if (operation === 'delete') {
        expect(answer.body.data?.deleteUser).toBe(true);
        expect(await membershipOf(foyer, target.tenantUserId)).toBeUndefined();
        expect(await foyer.db.select().from(users).where(eq(users.id, target.userId))).toHaveLength(1);
        expect((await auditOf(foyer, 'user.deleted', actor)).at(-1)?.detail).toMatchObject({
          target: { tenantUserId: target.tenantUserId },
        });
      } else {
        expect(answer.body.data?.sendPasswordResetLink).toBe(true);
        expect((await mailTo(target.email)).map((mail) => mail.kind)).toEqual(['reset']);
        const links = await foyer.db
          .select()
          .from(userTokens)
          .where(and(eq(userTokens.userId, target.userId), eq(userTokens.purpose, 'reset')));
        expect(links).toHaveLength(1);
        expect((await auditOf(foyer, 'user.reset_link_sent', actor)).at(-1)?.detail).toMatchObject({ target: { userId: target.userId } });
      }
    });
  });

  it.each(['disable', 'delete', 'reset'] as const)('%s without a token is UNAUTHENTICATED (401)', async (operation) => {
    const target = await addMember(foyer, matrixId, { role: 'VIEWER' });
    await expectRefused(matrixId, () => run(null, operation, target.tenantUserId), 401, 'UNAUTHENTICATED');
  });
});

describe('granting roles: every role grants every role', () => {
  const cases = ROLES.flatMap((actor) => ROLES.map((granted) => [actor, granted] as const));

  it.each(cases)('%s grants %s to a viewer', async (actorRole, granted) => {
    const target = await addMember(foyer, matrixId, { role: 'VIEWER' });
    const attempt = () => ask(foyer, actors[actorRole], UPDATE, { user: { id: target.tenantUserId, role: granted } });
    if (!GRANTS[actorRole].includes(granted)) {
      await expectRefused(matrixId, attempt, 403, 'FORBIDDEN');
      return;
    }
    const answer = await attempt();
    expect(answer.body.data?.updateUser).toEqual({ id: target.tenantUserId, role: granted, enabled: true });
    expect((await membershipOf(foyer, target.tenantUserId))?.role).toBe(granted);
  });

  it('a manager can neither make a manager ADMIN or OWNER, nor raise a viewer to them', async () => {
    const manager = await addMember(foyer, matrixId, { role: 'MANAGER' });
    const viewer = await addMember(foyer, matrixId, { role: 'VIEWER' });
    for (const target of [manager, viewer]) {
      for (const role of ['ADMIN', 'OWNER']) {
        await expectRefused(
          matrixId,
          () => ask(foyer, actors.MANAGER, UPDATE, { user: { id: target.tenantUserId, role } }),
          403,
          'FORBIDDEN',
        );
      }
    }
  });

  it('an admin can neither grant OWNER nor change, disable, delete or reset an owner', async () => {
    const owner = await addMember(foyer, matrixId, { role: 'OWNER' });
    const viewer = await addMember(foyer, matrixId, { role: 'VIEWER' });
    await expectRefused(
      matrixId,
      () => ask(foyer, actors.ADMIN, UPDATE, { user: { id: viewer.tenantUserId, role: 'OWNER' } }),
      403,
      'FORBIDDEN',
    );
    for (const operation of ['demote', 'disable', 'delete', 'reset'] as const) {
      await expectRefused(matrixId, () => run(actors.ADMIN, operation, owner.tenantUserId), 403, 'FORBIDDEN');
    }
  });

  it('refuses a role that does not exist and custom values with 400, changing nothing', async () => {
    const target = await addMember(foyer, matrixId, { role: 'VIEWER' });
    await expectRefused(
      matrixId,
      () => ask(foyer, actors.OWNER, UPDATE, { user: { id: target.tenantUserId, role: 'BOSS' } }),
      400,
      'BAD_USER_INPUT',
    );
    await expectRefused(
      matrixId,
      () => ask(foyer, actors.OWNER, UPDATE, { user: { id: target.tenantUserId, customParams: [{ label: 'x', value: 'y' }] } }),
      400,
      'BAD_USER_INPUT',
    );
  });
});

describe('inviting and listing: every role', () => {
  it.each(ROLES)('%s', async (role) => {
    const address = `${randomUUID().slice(0, 8)}@invited.foyer.test`;
    const invite = () => ask(foyer, actors[role], INVITE, { names: [address] });
    if (role === 'VIEWER') await expectRefused(matrixId, invite, 403, 'FORBIDDEN');
    else expect((await invite()).body.data?.createUsers).toEqual([{ id: expect.any(String), email: address, role: 'VIEWER' }]);

    const list = await ask(foyer, actors[role], LIST);
    expect(list.body.errors).toBeUndefined();
    expect(list.body.data?.countUsers).toBeGreaterThanOrEqual(4);
  });

  it('without a token: UNAUTHENTICATED (401), nothing invited', async () => {
    await expectRefused(matrixId, () => ask(foyer, null, INVITE, { names: ['someone@invited.foyer.test'] }), 401, 'UNAUTHENTICATED');
    const list = await ask(foyer, null, LIST);
    expect(list.status).toBe(401);
    expect(errorCodes(list)).toEqual(['UNAUTHENTICATED', 'UNAUTHENTICATED']);
  });

  it('nobody sends a reset link when the app has passwords off: PASSWORD_SIGN_IN_DISABLED (403), no link, no mail', async () => {
    const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
    const target = await addMember(foyer, matrixId, { role: 'VIEWER' });
    await foyer.db
      .update(apps)
      .set({ settings: { ...app!.settings, passwordEnabled: false } })
      .where(eq(apps.id, foyer.demo.appId));
    try {
      await expectRefused(matrixId, () => run(actors.OWNER, 'reset', target.tenantUserId), 403, 'PASSWORD_SIGN_IN_DISABLED');
      expect(await mailTo(target.email)).toEqual([]);
      expect(await foyer.db.select().from(userTokens).where(eq(userTokens.userId, target.userId))).toEqual([]);
    } finally {
      await foyer.db.update(apps).set({ settings: app!.settings }).where(eq(apps.id, foyer.demo.appId));
    }
  });

  it('nobody invites with a default role they could not grant', async () => {
    const [app] = await foyer.db.select().from(apps).where(eq(apps.id, foyer.demo.appId));
    const withDefault = (defaultRole: Role) =>
      foyer.db
        .update(apps)
        .set({ settings: { ...app!.settings, defaultRole } as AppSettings })
        .where(eq(apps.id, foyer.demo.appId));
    try {
      await withDefault('ADMIN');
      const address = `${randomUUID().slice(0, 8)}@invited.foyer.test`;
      await expectRefused(matrixId, () => ask(foyer, actors.MANAGER, INVITE, { names: [address] }), 403, 'FORBIDDEN');
      expect((await ask(foyer, actors.ADMIN, INVITE, { names: [address] })).body.data?.createUsers).toEqual([
        { id: expect.any(String), email: address, role: 'ADMIN' },
      ]);
      await withDefault('OWNER');
      const next = `${randomUUID().slice(0, 8)}@invited.foyer.test`;
      await expectRefused(matrixId, () => ask(foyer, actors.ADMIN, INVITE, { names: [next] }), 403, 'FORBIDDEN');
      expect((await ask(foyer, actors.OWNER, INVITE, { names: [next] })).body.data?.createUsers).toEqual([
        { id: expect.any(String), email: next, role: 'OWNER' },
      ]);
    } finally {
      await foyer.db.update(apps).set({ settings: app!.settings }).where(eq(apps.id, foyer.demo.appId));
    }
  });
});

describe("another workspace's members", () => {
  it.each(['demote', 'disable', 'delete', 'reset'] as const)(
    '%s by id answers NOT_FOUND (404), exactly like an unknown id',
    async (operation) => {
      const unknown = await run(actors.OWNER, operation, randomUUID());
      expect(unknown.status).toBe(404);
      expect(errorCodes(unknown)).toEqual(['NOT_FOUND']);
      const before = await snapshot(foyer, acmeAdmin.tenantId);
      await expectRefused(matrixId, () => run(actors.OWNER, operation, acmeAdmin.tenantUserId), 404, 'NOT_FOUND');
      expect(await snapshot(foyer, acmeAdmin.tenantId)).toEqual(before);
      const foreign = await run(actors.OWNER, operation, acmeAdmin.tenantUserId);
      expect({ status: foreign.status, body: foreign.body }).toEqual({ status: unknown.status, body: unknown.body });
    },
  );
});

describe('acting on oneself', () => {
  it.each(['OWNER', 'ADMIN', 'MANAGER'] as const)('a %s cannot demote, disable, delete or reset themself', async (role) => {
    for (const operation of ['demote', 'disable', 'delete', 'reset'] as const) {
      await expectRefused(matrixId, () => run(actors[role], operation, actors[role].tenantUserId), 403, 'SELF_CHANGE_FORBIDDEN');
    }
    // Raising oneself is no better.
    await expectRefused(
      matrixId,
      () => ask(foyer, actors[role], UPDATE, { user: { id: actors[role].tenantUserId, role: 'OWNER' } }),
      403,
      'SELF_CHANGE_FORBIDDEN',
    );
  });

  it('a viewer is refused before that, for lack of USER_WRITE', async () => {
    await expectRefused(matrixId, () => run(actors.VIEWER, 'disable', actors.VIEWER.tenantUserId), 403, 'FORBIDDEN');
  });
});

describe('the last owner', () => {
  let soloId: string;
  let owner: Member;
  let admin: Member;
  let manager: Member;

  beforeAll(async () => {
    soloId = await createWorkspace(foyer, 'Solo');
    owner = await addMember(foyer, soloId, { role: 'OWNER' });
    admin = await addMember(foyer, soloId, { role: 'ADMIN' });
    manager = await addMember(foyer, soloId, { role: 'MANAGER' });
  });

  const enabledOwners = async (tenantId: string) => {
    const [row] = await foyer.db
      .select({ total: count() })
      .from(tenantUsers)
      .where(and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.role, 'OWNER'), eq(tenantUsers.enabled, true)));
    return row!.total;
  };

  it('cannot demote, disable or delete themself', async () => {
    for (const operation of ['demote', 'disable', 'delete'] as const) {
      await expectRefused(soloId, () => run(owner, operation, owner.tenantUserId), 403, 'SELF_CHANGE_FORBIDDEN');
    }
    expect(await enabledOwners(soloId)).toBe(1);
  });

  it('cannot be demoted, disabled or deleted by an admin or a manager', async () => {
    for (const actor of [admin, manager]) {
      for (const operation of ['demote', 'disable', 'delete'] as const) {
        await expectRefused(soloId, () => run(actor, operation, owner.tenantUserId), 403, 'FORBIDDEN');
      }
    }
    expect(await enabledOwners(soloId)).toBe(1);
  });

  it.each(['demote', 'disable', 'delete'] as const)('two owners who %s each other at once leave one enabled owner', async (operation) => {
    const duelId = await createWorkspace(foyer, `Duel ${operation}`);
    const first = await addMember(foyer, duelId, { role: 'OWNER' });
    const second = await addMember(foyer, duelId, { role: 'OWNER' });
    const answers = await Promise.all([run(first, operation, second.tenantUserId), run(second, operation, first.tenantUserId)]);
    const refused = answers.filter((answer) => answer.body.errors);
    expect(refused).toHaveLength(1);
    // Refused as no longer signed in (401) or no longer an owner (403), depending on whether the
    // loser's token was checked before or after the winner's change.
    expect([401, 403]).toContain(refused[0]!.status);
    expect(await enabledOwners(duelId)).toBe(1);
  });
});
