// At the production log level, request URLs and database errors reach the log without the secrets
// they carry: mailed-link and passkey-registration tokens, OAuth codes, SQL parameters.
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.ts';
import { loggerOptions } from '../../../server/http/listener.ts';
import { installErrorHandling } from '../../../server/http/errors.ts';
import { openTestDatabase } from '../../../server/testing.ts';
import type { DatabaseHandle } from '../../../server/db/client.ts';

const SECRET = 'Zk3v9secretTokenValue_0123456789abcdefghijk';
const EMAIL = 'private.person@example.com';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

describe('logs at the production level', () => {
  it('hold no link token, OAuth code or SQL parameter', async () => {
    let logged = '';
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logged += chunk;
        done();
      },
    });
    const config = loadConfig({ FOYER_ENV: 'production', FOYER_SECRET: 'x'.repeat(40) });
    expect(config.logLevel).toBe('info');
    // As server/http/listener.ts builds each listener, with the log going to `stream`.
    const app = Fastify({ logger: { ...loggerOptions(config, 'test'), stream } });
    installErrorHandling(app, { notFound: true });
    app.get('/*', async () => 'ok');
    app.get('/fails', async () => {
      await database.db.execute(sql`select ${EMAIL}::int`);
      return 'unreachable';
    });
    for (const url of [
      `/auth/set-password/${SECRET}`,
      `/auth/password/${SECRET}`,
      `/auth/magic-link/${SECRET}`,
      `/auth/passkeys/registration-options?forgotPasswordToken=${SECRET}`,
      `/token?code=${SECRET}&code_verifier=${SECRET}&client_id=app`,
    ]) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
    }
    expect((await app.inject({ method: 'GET', url: '/fails' })).statusCode).toBe(500);
    await app.close();

    expect(logged).toContain('/auth/set-password/[redacted]');
    expect(logged).toContain('client_id=app');
    expect(logged).toContain('params: [redacted]');
    expect(logged).not.toContain(SECRET);
    expect(logged).not.toContain(EMAIL);
  });
});
