// @vitest-environment node
// docs/SPEC.md section 7, "Request headers on the API client".

import { describe, expect, it } from 'vitest';
import { apiHeaderRules } from '../../../src/http/headers.ts';

describe('API header rules', () => {
  it('1: only an access token → a bearer Authorization header', () => {
    expect(apiHeaderRules({ accessToken: 'jwt' })).toEqual({ authorization: 'Bearer jwt' });
  });

  it('1: no bearer when an auth token is held as well', () => {
    expect(apiHeaderRules({ accessToken: 'jwt', authToken: 'legacy' })).toEqual({});
  });

  it('2: an auth token and no access token → x-auth-token', () => {
    expect(apiHeaderRules({ authToken: 'legacy' })).toEqual({ 'x-auth-token': 'legacy' });
  });

  it('2: the MFA token is joined to the auth token with an underscore', () => {
    expect(apiHeaderRules({ authToken: 'legacy', mfaToken: 'mfa' })).toEqual({ 'x-auth-token': 'legacy_mfa' });
  });

  it('2: an MFA token alone sends nothing', () => {
    expect(apiHeaderRules({ mfaToken: 'mfa' })).toEqual({});
  });

  it('3: a tenant user id and no access token → x-tenant-user-id', () => {
    expect(apiHeaderRules({ authToken: 'legacy', tenantUserId: 'tu-1' })).toEqual({
      'x-auth-token': 'legacy',
      'x-tenant-user-id': 'tu-1',
    });
  });

  it('3: the tenant user id is not sent beside an access token', () => {
    expect(apiHeaderRules({ accessToken: 'jwt', tenantUserId: 'tu-1' })).toEqual({ authorization: 'Bearer jwt' });
  });

  it('4: a configured app id is always sent', () => {
    expect(apiHeaderRules({ appId: 'demo-app' })).toEqual({ 'x-app-id': 'demo-app' });
    expect(apiHeaderRules({ accessToken: 'jwt', appId: 'demo-app' })).toEqual({
      authorization: 'Bearer jwt',
      'x-app-id': 'demo-app',
    });
    expect(apiHeaderRules({ authToken: 'legacy', mfaToken: 'mfa', tenantUserId: 'tu-1', appId: 'demo-app' })).toEqual({
      'x-auth-token': 'legacy_mfa',
      'x-tenant-user-id': 'tu-1',
      'x-app-id': 'demo-app',
    });
  });

  it('sends nothing for empty values', () => {
    expect(apiHeaderRules({ accessToken: '', authToken: '', tenantUserId: '', appId: '' })).toEqual({});
  });
});
