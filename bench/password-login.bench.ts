// Password sign-in on the auth service (POST /auth/authenticate through Fastify inject: app lookup,
// login limit, user lookup, argon2id verification, login session and audit) beside its floor, the
// bare argon2id verification of the same password against the same hash; then again once the app has
// 150,000 audit events of other people in the last 15 minutes, which the login limits must not read.
import { eq, sql } from 'drizzle-orm';
import { startFoyer } from '../server/testing.ts';
import { users } from '../server/db/schema.ts';
import { verifyPassword } from '../server/auth/passwords.ts';
import { DEMO_PASSWORD } from '../server/seed/demo.ts';
import { compareMs } from './measure.ts';
import type { BenchEntry, Figure } from './types.ts';

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
      const figures: Figure[] = [];
      const measure = async (name: string) => {
        const { value, floor, spread } = await compareMs(signIn, verify, { runs: 15, warmup: 3 });
        figures.push({ name, value, unit: 'ms', spread, floor: { name: 'bare argon2id verify', value: floor } });
      };
      await measure('POST /auth/authenticate, right password');
      // Sign-ins and wrong passwords of 5,000 other people from 1,000 other addresses, spread over 15 minutes.
      await foyer.db.execute(sql`
        insert into audit_events (app_id, type, ip, detail, created_at)
        select ${foyer.demo.appId}, case when n % 3 = 0 then 'login.failure' else 'login.success' end,
          '10.1.' || (n % 1000 / 256) || '.' || (n % 1000 % 256), jsonb_build_object('username', 'person' || (n % 5000) || '@bench.foyer.test'),
          now() - make_interval(secs => n % 900)
        from generate_series(1, 150000) as n`);
      await measure('the same, 150,000 audit events of the app in 15 minutes');
      return figures;
    } finally {
      await foyer.close();
    }
  },
};

export default entry;
