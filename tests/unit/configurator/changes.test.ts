// The publish dialog's sentences, rendered with the configurator's real English texts.
import { describe, expect, it } from 'vitest';
import { describeChange, subjectOf } from '../../../configurator/editor/changes.ts';
import { createConsoleI18n } from '../../../configurator/i18n/index.ts';

const i18n = createConsoleI18n();

describe('change list sentences', () => {
  it('names a social provider switch after the provider', () => {
    expect(describeChange(i18n, { kind: 'enabled', path: 'googleSsoEnabled' })).toBe('Google sign-in enabled');
    expect(describeChange(i18n, { kind: 'disabled', path: 'azureAdSsoEnabled' })).toBe('Microsoft sign-in disabled');
  });

  it('names the other switches', () => {
    expect(describeChange(i18n, { kind: 'enabled', path: 'magicLinkEnabled' })).toBe('Magic link sign-in enabled');
    expect(describeChange(i18n, { kind: 'disabled', path: 'passwordEnabled' })).toBe('Password sign-in disabled');
  });

  it('shows a changed value from → to, and nested paths by their name', () => {
    expect(describeChange(i18n, { kind: 'changed', path: 'branding.colors.primary', from: '#1f42dd', to: '#00aa77' })).toBe(
      'Primary colour #1f42dd → #00aa77',
    );
    expect(describeChange(i18n, { kind: 'changed', path: 'accessTokenTtl', from: 3600, to: 600 })).toBe('Access token lifetime 3600 → 600');
  });

  it('says "(none)" for a value set or removed, and does not quote long values', () => {
    expect(describeChange(i18n, { kind: 'changed', path: 'branding.radius', to: '4px' })).toBe('Corner radius (none) → 4px');
    expect(describeChange(i18n, { kind: 'changed', path: 'logo', from: 'https://x.test/a.png', to: null })).toBe(
      'Logo https://x.test/a.png → (none)',
    );
    expect(describeChange(i18n, { kind: 'changed', path: 'branding.customCss', from: '', to: 'a{}'.repeat(40) })).toBe(
      'Custom CSS changed',
    );
  });

  it('counts translations per language with the right plural', () => {
    expect(describeChange(i18n, { kind: 'translations', language: 'sv', count: 3 })).toBe('3 translations changed (sv)');
    expect(describeChange(i18n, { kind: 'translations', language: 'en', count: 1 })).toBe('1 translation changed (en)');
  });

  it('sums up list changes, leaving out the zero parts', () => {
    expect(describeChange(i18n, { kind: 'list', path: 'customSignupFields', added: 1, removed: 0, changed: 2 })).toBe(
      'Signup fields: 1 added, 2 changed',
    );
    expect(describeChange(i18n, { kind: 'list', path: 'redirectUris', added: 0, removed: 0, changed: 0 })).toBe('Redirect URIs: reordered');
  });

  it('says a secret was replaced without any value', () => {
    expect(describeChange(i18n, { kind: 'secret', path: 'socialProviders.github.clientSecret' })).toBe('GitHub client secret replaced');
  });

  it('falls back to the path for a field it has no name for, never to an object dump', () => {
    expect(subjectOf(i18n, 'somethingNew')).toBe('somethingNew');
    expect(subjectOf(i18n, 'branding')).toBe('branding');
    expect(subjectOf(i18n, 'socialProviders.google.clientId')).toBe('Google client ID');
  });
});
