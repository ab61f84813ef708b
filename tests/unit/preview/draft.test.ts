// A draft AppConfig as the runtime's state: the public config every screen reads, the translations,
// and the stylesheet of its branding.
import { afterEach, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../../common/app-config.ts';
import { publicConfigOf, translationsOf } from '../../../src/preview/draft.ts';
import { documentStyles } from '../../../src/preview/styles.ts';
import { brandingStylesheet } from '../../../common/branding-css.ts';
import { SUPPORTED_LOCALES } from '../../../common/locales.ts';

const draft: AppConfig = {
  name: 'Draft app',
  logo: 'https://cdn.example.test/logo.png',
  privacyPolicyUrl: 'https://example.test/privacy',
  termsOfServiceUrl: 'javascript:alert(1)',
  magicLinkEnabled: true,
  googleSsoEnabled: false,
  githubSsoEnabled: true,
  appleSsoEnabled: true,
  tenantSelfSignup: true,
  passwordEnabled: false,
  redirectUris: ['https://app.example.test/callback'],
  branding: { copyrightFooter: '© Draft Inc.' },
  passwordPolicy: { complexityRegex: '.{12,}' },
  customSignupFields: [
    { label: 'company', type: 'text', userLabel: 'Company', required: true },
    { label: 'size', type: 'integer', userLabel: 'Employees' },
  ],
  translations: { sv: { login: { heading: 'Logga in' } } },
};

describe('publicConfigOf', () => {
  it('answers what getAppAnonymous would answer once published, plus the signup fields', () => {
    expect(publicConfigOf(draft)).toEqual({
      name: 'Draft app',
      logo: 'https://cdn.example.test/logo.png',
      privacyPolicyUrl: 'https://example.test/privacy',
      termsOfServiceUrl: null,
      onboardingFlow: null,
      passkeysEnabled: false,
      azureAdSsoEnabled: false,
      googleSsoEnabled: false,
      linkedinSsoEnabled: false,
      facebookSsoEnabled: false,
      githubSsoEnabled: true,
      appleSsoEnabled: true,
      mfaEnabled: false,
      magicLinkEnabled: true,
      authLegacy: false,
      tenantSelfSignup: true,
      passwordValidation: true,
      passwordComplexityRegex: '.{12,}',
      passwordEnabled: false,
      copyrightFooter: '© Draft Inc.',
      socialProviders: ['github', 'apple'],
      languages: [...SUPPORTED_LOCALES],
      defaultLanguage: 'en',
      customSignupFields: [
        { label: 'company', type: 'text', userLabel: 'Company', required: true },
        { label: 'size', type: 'integer', userLabel: 'Employees', required: false },
      ],
    });
  });

  it("offers the draft's languages in Foyer's order, and its default only when offered", () => {
    expect(publicConfigOf({ ...draft, languages: ['de', 'sv'], defaultLanguage: 'de' })).toMatchObject({
      languages: ['sv', 'de'],
      defaultLanguage: 'de',
    });
    // Half-edited: the default is no longer offered, so the first offered language takes over.
    expect(publicConfigOf({ ...draft, languages: ['ar', 'he'], defaultLanguage: 'de' })).toMatchObject({
      languages: ['ar', 'he'],
      defaultLanguage: 'ar',
    });
  });

  it('reads a half-edited draft defensively: defaults for missing or mistyped values, no fields when none', () => {
    const edited = { name: '', passwordEnabled: 'yes', googleSsoEnabled: 1, customSignupFields: [{ label: 'x', type: 'script' }, null] };
    const config = publicConfigOf(edited as unknown as AppConfig);
    expect(config).toMatchObject({
      name: null,
      passwordEnabled: true,
      googleSsoEnabled: false,
      socialProviders: [],
      customSignupFields: [],
    });
  });
});

describe('translationsOf', () => {
  it('keeps languages with nested texts and drops anything else', () => {
    const mixed = { ...draft, translations: { sv: { login: { heading: 'Logga in' } }, de: 'Anmelden' } } as unknown as AppConfig;
    expect(translationsOf(mixed)).toEqual({ sv: { login: { heading: 'Logga in' } } });
    expect(translationsOf({ name: 'x', redirectUris: [] })).toEqual({});
  });
});

describe('brandingStylesheet', () => {
  it('puts the tokens on :root, then the custom CSS', () => {
    const css = brandingStylesheet({
      colors: { primary: '#0a7', text: 'rgb(10, 20, 30)' },
      radius: '12px',
      font: "'Inter', sans-serif",
      customCss: '.foyer-card { box-shadow: none; }',
    });
    expect(css).toBe(
      ":root {\n  --foyer-color-primary: #0a7;\n  --foyer-color-text: rgb(10, 20, 30);\n  --foyer-radius: 12px;\n  --foyer-font-family: 'Inter', sans-serif;\n}\n.foyer-card { box-shadow: none; }",
    );
  });

  it('leaves out token values that could break out of the declaration, and custom CSS failing the rule', () => {
    expect(brandingStylesheet({ colors: { primary: 'red;}body{display:none' }, radius: '1px}', font: 'x;y' })).toBe('');
    expect(brandingStylesheet({ colors: { danger: 'crimson' }, customCss: '</style><script>alert(1)</script>' })).toBe(
      ':root {\n  --foyer-color-danger: crimson;\n}\n',
    );
    expect(brandingStylesheet({ customCss: '.a { background: url(\\6a avascript:alert(1)) }' })).toBe('');
    expect(brandingStylesheet({ customCss: 'x'.repeat(50_001) })).toBe('');
    expect(brandingStylesheet(undefined)).toBe('');
  });
});

describe('documentStyles', () => {
  afterEach(() => {
    document.head.innerHTML = '';
    document.adoptedStyleSheets = [];
  });

  it('adopts one stylesheet, replaces its text on every call and removes the published stylesheet link', () => {
    // jsdom has constructable stylesheets but no adoptedStyleSheets list; browsers start with an empty one.
    document.adoptedStyleSheets = [];
    const published = document.createElement('link');
    published.id = 'published-css';
    document.head.append(published);

    const styles = documentStyles(document, 'published-css');
    styles.show(':root { --foyer-color-primary: #0a7; }');
    expect(document.getElementById('published-css')).toBeNull();
    expect(document.adoptedStyleSheets).toHaveLength(1);
    const [sheet] = document.adoptedStyleSheets;
    expect(sheet!.cssRules[0]!.cssText).toContain('--foyer-color-primary: #0a7');

    styles.show('.foyer-card { color: red; }');
    expect(document.adoptedStyleSheets).toEqual([sheet]);
    expect([...sheet!.cssRules].map((rule) => rule.cssText)).toEqual(['.foyer-card { color: red; }']);
    expect(document.querySelectorAll('style')).toHaveLength(0);
  });
});
