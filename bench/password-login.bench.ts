// Password sign-in on the auth service (POST /auth/authenticate through Fastify inject: app lookup,
// login limit, user lookup, argon2id verification, login session and audit) beside its floor, the
// bare argon2id verification of the same password against the same hash.
import { eq } from 'drizzle-orm';
import { startFoyer } from '../server/testing.ts';
import { users } from '../server/db/schema.ts';
import { verifyPassword } from '../server/auth/passwords.ts';
import { DEMO_PASSWORD } from '../server/seed/demo.ts';
import { compareMs } from './measure.ts';
import type { BenchEntry } from './types.ts';

const EMAIL = 'owner@demo.foyer.test';

const entry: BenchEntry = {
  title: 'password sign-in',
  async run() {
    const foyer = await startFoyer();
    try {
      const [user] = await foyer.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.email, EMAIL));
      const hash = user!.passwordHash!;
      const signIn = async () => {
        const response = await foyer.foyer.auth.inject({
          method: 'POST',
          url: '/auth/authenticate',
          headers: { 'content-type': 'application/json', 'x-app-id': foyer.demo.appId, origin: foyer.urls.ui },
          payload: JSON.stringify({ username: EMAIL, password: DEMO_PASSWORD }),
        });
        if (response.statusCode !== 200) throw new Error(`Sign-in answered ${response.statusCode}: ${response.body}`);
      };
      const verify = async () => {
        if (!(await verifyPassword(hash, DEMO_PASSWORD))) throw new Error('The demo password does not verify');
      };
      const { value, floor, spread } = await compareMs(signIn, verify, { runs: 15, warmup: 3 });
      return [{ name: 'POST /auth/authenticate, right password', value, unit: 'ms', spread, floor: { name: 'bare argon2id verify', value: floor } }];
    } finally {
      await foyer.close();
    }
  },
};

export default entry;
