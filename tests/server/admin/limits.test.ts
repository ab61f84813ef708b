// The admin API's writes that create things or send mail are limited per owner (or app) and per
// client address, also under a concurrent burst.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { APP_CREATIONS, WORKSPACE_CREATIONS } from '../../../server/admin/limits.ts';
import { accessTokenFor, admin, consoleOwnerToken, newConsoleUser } from '../support/console.ts';

let foyer: TestFoyer;
beforeAll(async () => {
  foyer = await startFoyer();
});
afterAll(() => foyer?.close());

describe('app creation', () => {
  it(`creates at most ${APP_CREATIONS[0]!.max} apps an hour per owner, also from a concurrent burst`, async () => {
    const owner = await newConsoleUser(foyer, { workspace: 'Burst company', role: 'OWNER' });
    const token = await accessTokenFor(foyer, owner);
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, index) => admin(foyer, 'POST', '/apps', { token, body: { name: `Burst ${index}` } })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(APP_CREATIONS[0]!.max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25 - APP_CREATIONS[0]!.max);
    expect(answers.find((answer) => answer.status === 429)!.body).toMatchObject({ statusCode: 429, error: 'TOO_MANY_APPS' });
  });
});

describe('workspace creation', () => {
  it(`creates (and mails) at most ${WORKSPACE_CREATIONS[0]!.max} workspaces an hour per app, also from a concurrent burst`, async () => {
    const token = await consoleOwnerToken(foyer);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        admin(foyer, 'POST', `/apps/${foyer.demo.appId}/workspaces`, {
          token,
          body: { name: `Spam ${index}`, ownerEmail: `victim-${index}@example.com` },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(WORKSPACE_CREATIONS[0]!.max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40 - WORKSPACE_CREATIONS[0]!.max);
    expect(answers.find((answer) => answer.status === 429)!.body).toMatchObject({ statusCode: 429, error: 'TOO_MANY_WORKSPACES' });
  });
});
