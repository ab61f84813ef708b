// The auth mode comes from the app config (src/runtime/app-config.ts withAuthMode), and the screens see
// the app config without the options of capabilities the mode lacks (withCapabilities).
import { describe, expect, it } from 'vitest';
import { withAuthMode, withCapabilities, type AppConfigState, type PublicAppConfig } from '../../../src/runtime/app-config.ts';
import type { AuthCapability } from '../../../src/auth/types.ts';
import { defaultConfig } from '../../../src/config.ts';

const app = {
  name: 'Demo',
  passkeysEnabled: true,
  magicLinkEnabled: true,
  googleSsoEnabled: true,
  githubSsoEnabled: true,
  socialProviders: ['google', 'github'],
  authLegacy: true,
} as PublicAppConfig;
const ready: AppConfigState = { status: 'ready', app };

describe('withAuthMode', () => {
  it('is legacy when the app says so or the deployment does', () => {
    expect(withAuthMode(defaultConfig, ready).authLegacy).toBe(true);
    expect(withAuthMode(defaultConfig, { status: 'ready', app: { ...app, authLegacy: false } }).authLegacy).toBe(false);
    expect(withAuthMode(defaultConfig, { status: 'unavailable' }).authLegacy).toBe(false);
    expect(withAuthMode({ ...defaultConfig, authLegacy: true }, { status: 'unknown-app' }).authLegacy).toBe(true);
  });
});

describe('withCapabilities', () => {
  it('turns off passkeys, magic links and social sign-in for a mode without them', () => {
    const seen = withCapabilities(ready, new Set());
    expect(seen).toMatchObject({
      status: 'ready',
      app: { passkeysEnabled: false, magicLinkEnabled: false, googleSsoEnabled: false, githubSsoEnabled: false, socialProviders: [] },
    });
  });

  it('leaves the app config as published for a mode with every capability', () => {
    const all = new Set<AuthCapability>(['passkeys', 'magicLink', 'federation', 'sessions']);
    expect(withCapabilities(ready, all)).toEqual(ready);
    expect(withCapabilities({ status: 'unknown-app' }, new Set())).toEqual({ status: 'unknown-app' });
  });
});
