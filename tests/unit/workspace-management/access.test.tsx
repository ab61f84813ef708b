// @vitest-environment jsdom
// Role and plan gating: the rule itself, the member-authority mirror, and the Gate, which shows nothing
// until the workspace's plan has loaded and then shows the content, or the fallback.
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { allows } from '../../../src/access/rules.ts';
import { grantableRoles, mayManage } from '../../../common/roles.ts';
import { Gate } from '../../../src/access/Gate.tsx';
import { createApiClient, type ApiClient } from '../../../src/api/client.ts';
import { ApiClientProvider, createQueryClient } from '../../../src/api/react.tsx';
import { RuntimeContext } from '../../../src/runtime/context.tsx';
import { createHarness, type Harness } from '../auth/support/harness.ts';
import { defaultTestUser, TestAuthService } from '../auth/support/test-auth-service.ts';

describe('access rules', () => {
  it('lets everyone through without lists, and needs both lists when both are given', () => {
    expect(allows({}, { role: '' })).toBe(true);
    expect(allows({ roles: [], plans: [] }, { role: 'VIEWER' })).toBe(true);
    expect(allows({ roles: ['OWNER', 'ADMIN'] }, { role: 'ADMIN' })).toBe(true);
    expect(allows({ roles: ['OWNER', 'ADMIN'] }, { role: 'VIEWER' })).toBe(false);
    expect(allows({ roles: ['OWNER'] }, { role: '' })).toBe(false);
    expect(allows({ plans: ['TEAM'] }, { role: 'VIEWER', plan: 'TEAM' })).toBe(true);
    expect(allows({ plans: ['TEAM'] }, { role: 'VIEWER', plan: null })).toBe(false);
    expect(allows({ roles: ['OWNER'], plans: ['TEAM'] }, { role: 'OWNER', plan: 'FREEMIUM' })).toBe(false);
    expect(allows({ roles: ['OWNER'], plans: ['TEAM'] }, { role: 'ADMIN', plan: 'TEAM' })).toBe(false);
    expect(allows({ roles: ['OWNER'], plans: ['TEAM'] }, { role: 'OWNER', plan: 'TEAM' })).toBe(true);
  });

  it('mirrors who may act on whom and which roles they may hand out', () => {
    const all = ['OWNER', 'ADMIN', 'MANAGER', 'VIEWER'];
    expect(grantableRoles('OWNER', all)).toEqual(all);
    expect(grantableRoles('ADMIN', all)).toEqual(['ADMIN', 'MANAGER', 'VIEWER']);
    expect(grantableRoles('MANAGER', all)).toEqual(['MANAGER', 'VIEWER']);
    expect(grantableRoles('VIEWER', all)).toEqual([]);
    expect(mayManage('ADMIN', 'OWNER')).toBe(false);
    expect(mayManage('MANAGER', 'ADMIN')).toBe(false);
    expect(mayManage('MANAGER', 'VIEWER')).toBe(true);
    expect(mayManage('VIEWER', 'VIEWER')).toBe(false);
    expect(mayManage('', 'VIEWER')).toBe(false);
  });
});

describe('Gate', () => {
  let harness: Harness;
  let api: ApiClient;
  let tenantRequests: number;
  let answerPlan: (plan: string | null) => void;

  beforeEach(async () => {
    localStorage.clear();
    sessionStorage.clear();
    harness = createHarness(await TestAuthService.start());
    tenantRequests = 0;
    api = createApiClient(harness.config, harness.client, {
      fetch: (_input, init) => {
        const body = JSON.parse(String(init?.body)) as { operationName: string };
        if (body.operationName !== 'GetTenant') throw new Error(`unexpected ${body.operationName}`);
        tenantRequests += 1;
        return new Promise((resolve) => {
          answerPlan = (plan) =>
            resolve(new Response(JSON.stringify({ data: { getTenant: { plan } } }), { headers: { 'content-type': 'application/json' } }));
        });
      },
    });
  });

  afterEach(() => {
    cleanup();
    harness.client.clear();
  });

  function draw(gate: React.ReactNode) {
    const runtime = { config: harness.config, auth: harness.client, api, appConfig: { status: 'unavailable' as const } };
    return render(
      <RuntimeContext value={runtime}>
        <ApiClientProvider client={api}>
          <QueryClientProvider client={createQueryClient(harness.client)}>{gate}</QueryClientProvider>
        </ApiClientProvider>
      </RuntimeContext>,
    );
  }

  it('shows nothing until the plan has loaded, then the content for a matching role and plan', async () => {
    await harness.signIn();
    draw(
      <Gate roles={['OWNER']} plans={['TEAM', 'BASIC']} fallback={<p>upgrade</p>}>
        <p>team content</p>
      </Gate>,
    );
    await vi.waitFor(() => expect(tenantRequests).toBe(1));
    expect(screen.queryByText('team content')).toBeNull();
    expect(screen.queryByText('upgrade')).toBeNull();
    await act(async () => answerPlan('TEAM'));
    expect(await screen.findByText('team content')).toBeTruthy();
  });

  it('shows the fallback when the workspace has another plan', async () => {
    await harness.signIn();
    draw(
      <Gate plans={['TEAM']} fallback={<p>upgrade</p>}>
        <p>team content</p>
      </Gate>,
    );
    await vi.waitFor(() => expect(tenantRequests).toBe(1));
    await act(async () => answerPlan('FREEMIUM'));
    expect(await screen.findByText('upgrade')).toBeTruthy();
    expect(screen.queryByText('team content')).toBeNull();
  });

  it('decides on roles alone from the token, without asking the server', async () => {
    await harness.signIn('/', { ...defaultTestUser, role: 'VIEWER' });
    draw(
      <>
        <Gate roles={['OWNER', 'ADMIN']}>
          <p>admins only</p>
        </Gate>
        <Gate roles={['VIEWER']}>
          <p>viewers</p>
        </Gate>
        <Gate>
          <p>everyone</p>
        </Gate>
      </>,
    );
    expect(screen.getByText('viewers')).toBeTruthy();
    expect(screen.getByText('everyone')).toBeTruthy();
    expect(screen.queryByText('admins only')).toBeNull();
    expect(tenantRequests).toBe(0);
  });
});
