// Which flows come with the page and which load when entered (src/flow/build/flowsPlugin.ts), and the
// forms that start loading with the page (src/flow/flows.ts).
import { describe, expect, it } from 'vitest';
import { flows, openingForms } from '../../../src/flow/flows.ts';

describe('bundled flows', () => {
  it("bring the login route's flow with the page and load every other flow when entered", async () => {
    const login = flows.find((entry) => entry.id === 'login')!;
    expect('flow' in login && login.flow.initial).toBe('USERNAME');
    const signup = flows.find((entry) => entry.routes.includes('/auth/signup'))!;
    expect('flow' in signup).toBe(false);
    expect('load' in signup && (await signup.load()).routes).toEqual(signup.routes);
    expect(flows.filter((entry) => 'flow' in entry).map((entry) => entry.id)).toEqual(['login']);
  });

  it("start loading the login's first form with the page, and nothing for routes whose flow loads later", () => {
    expect(openingForms('/auth/login')).toEqual(['login-username']);
    expect(openingForms('/auth/signup')).toEqual([]);
    expect(openingForms('/nowhere')).toEqual([]);
  });
});
