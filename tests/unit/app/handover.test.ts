// The hosted handover's decisions (SPEC.md section 2): each flow's target, when it signs out or
// exchanges the code, the args as base64 JSON, and entryPoint honoured only as a same-origin path; the
// code and its verifier taken out of the address at load.
import { describe, expect, it } from 'vitest';
import { parseHandoverArgs, planHandover, sameOriginPath, type HandoverArgs } from '../../../src/app/handover.ts';
import { handoverSecrets, takeHandoverSecrets } from '../../../src/app/handover-address.ts';

const ORIGIN = 'https://ui.foyer.test';
const plan = (flow: string | null, args: HandoverArgs = {}) => planHandover(flow, args, ORIGIN);

describe('planHandover', () => {
  it('openidconnect: signs out, then the entry point or the login; errors to their screens', () => {
    expect(plan('openidconnect')).toEqual({ signOut: true, target: '/auth/login' });
    expect(plan('openidconnect', { entryPoint: '/auth/magic-link' })).toEqual({ signOut: true, target: '/auth/magic-link' });
    expect(plan('openidconnect', { errorDetails: { type: 'FEDERATION_MISSING_USER', federation: 'ms-azure-ad' } }).target).toBe(
      '/auth/signup?error=missing_user&federation=ms-azure-ad',
    );
    expect(plan('openidconnect', { errorDetails: { type: 'FEDERATION_MISSING_USER' } }).target).toBe('/auth/login');
    expect(plan('openidconnect', { errorDetails: { type: 'MAGIC_LINK_EXPIRED' } }).target).toBe('/auth/login?error=true&details=mle');
    expect(plan('openidconnect', { errorDetails: { type: 'SOMETHING_ELSE' }, entryPoint: '/x' }).target).toBe('/auth/login?error=true');
  });

  it('openidconnect_signup: signs out, then the signup with the plan, currency and interval given', () => {
    expect(plan('openidconnect_signup')).toEqual({ signOut: true, target: '/auth/signup' });
    expect(plan('openidconnect_signup', { signupOptions: { plan: 'TEAM', currency: 'EUR', recurrenceInterval: 'month' } }).target).toBe(
      '/auth/signup?plan=TEAM&currency=EUR&recurrenceInterval=month',
    );
    expect(plan('openidconnect_signup', { entryPoint: '/auth/login' }).target).toBe('/auth/login');
  });

  it('ms-azure-marketplace-landing-page: signs out, then the marketplace landing', () => {
    expect(plan('ms-azure-marketplace-landing-page')).toEqual({ signOut: true, target: '/ms-marketplace-landing' });
  });

  it('the user-management flows and select-plan exchange the code (null when none came), then open their screen', () => {
    expect(plan('user-management-portal', { code: 'c1' })).toEqual({ signOut: false, exchangeCode: 'c1', target: '/user-management' });
    expect(plan('user-management-users', { code: 'c1' }).target).toBe('/user-management/users');
    expect(plan('user-management-workspace', { code: 'c1' }).target).toBe('/user-management/workspace');
    expect(plan('user-management-profile', { code: 'c1' }).target).toBe('/user-management/profile');
    expect(plan('select-plan', { code: 'c2' })).toEqual({ signOut: false, exchangeCode: 'c2', target: '/tenant/plan' });
    expect(plan('user-management-users')).toMatchObject({ exchangeCode: null });
  });

  it('any other flow: the entry point or the home', () => {
    expect(plan(null)).toEqual({ signOut: false, target: '/' });
    expect(plan('unknown', { entryPoint: '/user/list?x=1#y' }).target).toBe('/user/list?x=1#y');
  });

  it('never leaves the origin, whatever the entry point says', () => {
    for (const hostile of ['https://evil.test/', '//evil.test/x', '/\\evil.test', 'javascript:alert(1)', 'evil.test', ' /x', 42, '']) {
      expect(plan('openidconnect', { entryPoint: hostile as string }).target).toBe('/auth/login');
      expect(sameOriginPath(hostile, ORIGIN)).toBeUndefined();
    }
  });
});

describe('parseHandoverArgs', () => {
  const encode = (value: unknown) => btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))));

  it('reads base64 JSON, standard or URL-safe, with non-ASCII text', () => {
    const args = { code: 'abc', entryPoint: '/auth/signup', signupOptions: { plan: 'Åland' } };
    expect(parseHandoverArgs(encode(args))).toEqual(args);
    expect(parseHandoverArgs(encode(args).replace(/\+/g, '-').replace(/\//g, '_'))).toEqual(args);
  });

  it('reads anything else as no arguments', () => {
    for (const bad of [null, '', 'not base64!', btoa('not json'), btoa('[1,2]'), btoa('"text"')])
      expect(parseHandoverArgs(bad)).toEqual({});
  });
});

describe('takeHandoverSecrets', () => {
  it('takes the args and the fragment out of a handover address, keeping the rest', () => {
    window.history.replaceState(null, '', '/handover/go?appId=app-1&flow=user-management-users&args=e30#codeVerifier=verifier-1');
    takeHandoverSecrets(window.location, window.history);
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe(
      '/handover/go?appId=app-1&flow=user-management-users',
    );
    expect(handoverSecrets()).toEqual({ args: 'e30', codeVerifier: 'verifier-1' });
  });

  it('leaves any other address alone', () => {
    window.history.replaceState(null, '', '/auth/login?args=e30#codeVerifier=x');
    takeHandoverSecrets(window.location, window.history);
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe('/auth/login?args=e30#codeVerifier=x');
  });
});
