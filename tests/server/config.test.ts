import { describe, expect, it } from 'vitest';
import { DEFAULT_SECRET, loadConfig } from '../../server/config.ts';

describe('operator settings', () => {
  it('defaults to development on the documented ports and public URLs', () => {
    const config = loadConfig({});
    expect(config.env).toBe('development');
    expect(config.ports).toEqual({ auth: 3070, api: 3000, ui: 8080 });
    expect(config.urls).toEqual({ auth: 'http://localhost:3070', api: 'http://localhost:3000', ui: 'http://localhost:8080' });
    expect(config.databaseUrl).toBeUndefined();
  });

  it('takes public URLs from the environment, without a trailing slash', () => {
    const config = loadConfig({ FOYER_PUBLIC_AUTH_URL: 'https://auth.example.com/', FOYER_AUTH_PORT: '4000' });
    expect(config.urls.auth).toBe('https://auth.example.com');
    expect(config.ports.auth).toBe(4000);
  });

  it('accepts only development, test and production, and honours NODE_ENV=production', () => {
    for (const value of ['prod', 'Production', 'production ', 'staging', 'dev']) {
      expect(() => loadConfig({ FOYER_ENV: value })).toThrow(`Invalid FOYER_ENV: ${value} (use development, test or production)`);
    }
    expect(loadConfig({ FOYER_ENV: 'development' }).env).toBe('development');
    expect(loadConfig({ FOYER_ENV: 'test' }).env).toBe('development');
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/FOYER_SECRET/);
    expect(loadConfig({ NODE_ENV: 'production', FOYER_SECRET: 'x'.repeat(40) }).env).toBe('production');
    expect(() => loadConfig({ NODE_ENV: 'production', FOYER_ENV: 'development' })).toThrow(/contradicts NODE_ENV=production/);
  });

  it('refuses any NODE_ENV but production, development and test, whatever FOYER_ENV says: a misspelling never starts development', () => {
    for (const value of ['Production', 'prod', 'PRODUCTION', 'production ', 'staging', 'dev']) {
      expect(() => loadConfig({ NODE_ENV: value })).toThrow(
        `Invalid NODE_ENV: ${value} (use production, development or test, or leave it unset)`,
      );
      expect(() => loadConfig({ NODE_ENV: value, FOYER_ENV: 'production', FOYER_SECRET: 'x'.repeat(40) })).toThrow(
        `Invalid NODE_ENV: ${value}`,
      );
    }
    for (const value of ['development', 'test', '', undefined]) expect(loadConfig({ NODE_ENV: value }).env).toBe('development');
  });

  it('binds loopback by default, and refuses development on any other FOYER_HOST unless FOYER_ALLOW_DEV_ON_NETWORK=1', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    for (const host of ['127.0.0.1', '127.0.1.1', '::1', 'localhost', '::ffff:127.0.0.1'])
      expect(loadConfig({ FOYER_HOST: host }).host).toBe(host);
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'foyer.example.com']) {
      for (const mode of ['development', 'test', undefined]) {
        expect(() => loadConfig({ FOYER_HOST: host, FOYER_ENV: mode })).toThrow(
          `FOYER_HOST=${host} is not a loopback address: development (the demo users, the open mailbox, the default secret) stays on this machine; set FOYER_ALLOW_DEV_ON_NETWORK=1 to serve it to the network anyway`,
        );
      }
      expect(() => loadConfig({ FOYER_HOST: host, FOYER_ALLOW_DEV_ON_NETWORK: 'yes' })).toThrow(/FOYER_ALLOW_DEV_ON_NETWORK=1/);
      expect(loadConfig({ FOYER_HOST: host, FOYER_ALLOW_DEV_ON_NETWORK: '1' }).host).toBe(host);
      expect(loadConfig({ FOYER_HOST: host, FOYER_ENV: 'production', FOYER_SECRET: 'x'.repeat(40) }).host).toBe(host);
    }
  });

  it('reads FOYER_PREVIOUS_SECRETS as a comma-separated list, none by default', () => {
    expect(loadConfig({}).previousSecrets).toEqual([]);
    expect(loadConfig({ FOYER_PREVIOUS_SECRETS: ' old-one , ,older-two ' }).previousSecrets).toEqual(['old-one', 'older-two']);
  });

  it('reads FOYER_DNS_SERVERS as a comma-separated list, the system resolvers (none) by default', () => {
    expect(loadConfig({}).dnsServers).toEqual([]);
    expect(loadConfig({ FOYER_DNS_SERVERS: '127.0.0.1:5353, ,10.0.0.2' }).dnsServers).toEqual(['127.0.0.1:5353', '10.0.0.2']);
  });

  it('refuses to start in production with the default or a short secret', () => {
    expect(() => loadConfig({ FOYER_ENV: 'production' })).toThrow(/FOYER_SECRET/);
    expect(() => loadConfig({ FOYER_ENV: 'production', FOYER_SECRET: DEFAULT_SECRET })).toThrow(/FOYER_SECRET/);
    expect(() => loadConfig({ FOYER_ENV: 'production', FOYER_SECRET: 'short' })).toThrow(/FOYER_SECRET/);
    expect(loadConfig({ FOYER_ENV: 'production', FOYER_SECRET: 'x'.repeat(40) }).env).toBe('production');
  });

  it('serves the UI from Vite only when FOYER_UI_DEV=1 is asked for outside production', () => {
    expect(loadConfig({}).uiDev).toBe(false);
    expect(loadConfig({ FOYER_UI_DEV: '1' }).uiDev).toBe(true);
    expect(() => loadConfig({ FOYER_ENV: 'production', FOYER_SECRET: 'x'.repeat(40), FOYER_UI_DEV: '1' })).toThrow(/FOYER_UI_DEV/);
  });

  it('rejects a port that is not a port', () => {
    expect(() => loadConfig({ FOYER_API_PORT: 'eighty' })).toThrow(/Invalid port/);
    expect(() => loadConfig({ FOYER_API_PORT: '70000' })).toThrow(/Invalid port/);
  });
});
