// The auth service's public URL is configuration, never the request: a forged Host or
// X-Forwarded-Host (even from a trusted proxy) changes no URL that discovery publishes.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';

let foyer: TestFoyer;
beforeAll(async () => {
  foyer = await startFoyer({ trustProxy: ['127.0.0.1'] });
});
afterAll(() => foyer?.close());

function get(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(path, foyer.urls.auth);
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port: url.port, path: url.pathname, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('discovery under forged hosts', () => {
  it.each<Record<string, string>>([
    { host: 'attacker.example' },
    { host: 'attacker.example', 'x-forwarded-host': 'attacker.example', 'x-forwarded-proto': 'https' },
  ])('publishes only the configured auth URL (%j)', async (headers) => {
    const answer = await get('/.well-known/openid-configuration', headers);
    expect(answer.status).toBe(200);
    expect(answer.body).not.toContain('attacker.example');
    const discovery = JSON.parse(answer.body) as Record<string, unknown>;
    expect(discovery.issuer).toBe(foyer.urls.auth);
    for (const [key, value] of Object.entries(discovery)) {
      if (typeof value !== 'string' || !value.startsWith('http')) continue;
      expect([key, value === foyer.urls.auth || value.startsWith(`${foyer.urls.auth}/`)]).toEqual([key, true]);
    }
  });
});
