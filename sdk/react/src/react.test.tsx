// The provider, hooks and Gate over a session stored the way oidc-client-ts stores one after a
// sign-in (localStorage), with tokens carrying Foyer's claims (server/auth/oidc/claims.ts).
import { act, cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { User } from 'oidc-client-ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FoyerClient } from './client.ts';
import { FoyerProvider, Gate, useAccess, useCurrentUser } from './react.tsx';

const authOrigin = 'http://auth.test';
const appId = 'app-1';

const base64url = (value: object) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (claims: object) => `${base64url({ alg: 'RS256', typ: 'at+jwt' })}.${base64url(claims)}.signature`;

function storeSession(access: { role: string; plan?: string; scope?: string }, expiresIn = 3600) {
  const idClaims = {
    sub: 'membership-1',
    email: 'owner@example.test',
    preferred_username: 'owner@example.test',
    name: 'Olivia Owner',
    onboarded: true,
    role: access.role,
    tenant_id: 'tenant-1',
    tenant_name: 'Acme',
    tenant_locale: 'sv',
    tenant_onboarded: true,
    multi_tenant: true,
  };
  const user = new User({
    id_token: jwt(idClaims),
    access_token: jwt({ sub: 'membership-1', tid: 'tenant-1', ...access }),
    refresh_token: 'refresh-1',
    token_type: 'Bearer',
    scope: 'openid profile email',
    profile: { iss: authOrigin, aud: appId, exp: 0, iat: 0, ...idClaims },
    expires_at: Math.floor(Date.now() / 1000) + expiresIn,
  });
  localStorage.setItem(`foyer.user:${authOrigin}:${appId}`, user.toStorageString());
}

function Shown() {
  const user = useCurrentUser();
  const access = useAccess();
  return (
    <>
      <p data-testid="user">
        {user ? `${user.fullName} ${user.role} ${user.tenant.name} ${user.tenant.plan} ${user.tenant.locale}` : 'nobody'}
      </p>
      <p data-testid="privileges">{access.hasPrivilege('USER_WRITE') ? 'may write users' : 'may not write users'}</p>
      <Gate roles={['OWNER']} fallback={<p>not an owner</p>}>
        <p>owner page</p>
      </Gate>
      <Gate plans={['TEAM']} fallback={<p>not on team</p>}>
        <p>team page</p>
      </Gate>
      <Gate roles={['OWNER', 'ADMIN']} plans={['TEAM', 'ESSENTIAL']} fallback={<p>both refused</p>}>
        <p>both allowed</p>
      </Gate>
    </>
  );
}

async function renderApp(strict = false) {
  const app = (
    <FoyerProvider authOrigin={authOrigin} appId={appId} redirectUri="http://localhost:3000/callback">
      <Shown />
    </FoyerProvider>
  );
  await act(async () => {
    render(strict ? <StrictMode>{app}</StrictMode> : app);
  });
  await screen.findByText(/owner page|not an owner/);
}

beforeEach(() => localStorage.clear());
afterEach(() => cleanup());

describe('the signed-in person and the gates', () => {
  it('reads the user of docs/SPEC.md section 3 from the tokens and opens the owner and team gates to an owner on TEAM', async () => {
    storeSession({ role: 'OWNER', plan: 'TEAM', scope: 'AUTHENTICATED USER_READ USER_WRITE TENANT_READ TENANT_WRITE' });
    await renderApp();
    expect(screen.getByTestId('user').textContent).toBe('Olivia Owner OWNER Acme TEAM sv');
    expect(screen.getByTestId('privileges').textContent).toBe('may write users');
    expect(screen.getByText('owner page')).toBeTruthy();
    expect(screen.getByText('team page')).toBeTruthy();
    expect(screen.getByText('both allowed')).toBeTruthy();
  });

  it('shows the fallbacks to a viewer on FREEMIUM', async () => {
    storeSession({ role: 'VIEWER', plan: 'FREEMIUM', scope: 'AUTHENTICATED USER_READ TENANT_READ' });
    await renderApp();
    expect(screen.getByText('not an owner')).toBeTruthy();
    expect(screen.getByText('not on team')).toBeTruthy();
    expect(screen.getByText('both refused')).toBeTruthy();
    expect(screen.getByTestId('privileges').textContent).toBe('may not write users');
  });

  it('needs every given rule: an owner whose workspace has no plan yet is refused a plan gate', async () => {
    storeSession({ role: 'OWNER' });
    await renderApp();
    expect(screen.getByText('owner page')).toBeTruthy();
    expect(screen.getByText('not on team')).toBeTruthy();
    expect(screen.getByText('both refused')).toBeTruthy();
  });

  it('treats a role it does not know as no role at all', async () => {
    storeSession({ role: 'SUPERUSER', plan: 'TEAM' });
    await renderApp();
    expect(screen.getByText('not an owner')).toBeTruthy();
    expect(screen.getByTestId('user').textContent).toBe('Olivia Owner null Acme TEAM sv');
  });

  it('shows every fallback to nobody signed in', async () => {
    await renderApp();
    expect(screen.getByTestId('user').textContent).toBe('nobody');
    expect(screen.getByText('not an owner')).toBeTruthy();
    expect(screen.getByText('not on team')).toBeTruthy();
  });
});

describe('another tab', () => {
  it("signing out signs this one out too, under React's strict mode (effects mounted twice)", async () => {
    storeSession({ role: 'OWNER', plan: 'TEAM' });
    await renderApp(true);
    expect(screen.getByText('owner page')).toBeTruthy();

    // The other tab: its own client on the same storage and channel, as a second page of the app has.
    const otherTab = new FoyerClient({ authOrigin, appId, redirectUri: 'http://localhost:3000/callback' });
    await otherTab.start();
    expect(otherTab.getState().status).toBe('signed-in');
    // Its sign-out ends with a page move to Foyer's end-session endpoint, which discovery names.
    const endSession = otherTab.logout().catch(() => undefined);
    await screen.findByText('nobody');
    expect(screen.getByText('not an owner')).toBeTruthy();
    otherTab.close();
    await endSession;
  });
});
