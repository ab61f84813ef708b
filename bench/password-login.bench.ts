// Password sign-in on the auth service (POST /auth/authenticate through Fastify inject: app lookup,
// login limit, user lookup, argon2id verification, login session and audit) beside its floor, the
// bare argon2id verification of the same password against the same hash; then again once the app has
// 150,000 audit events of other people in the last 15 minutes, which the login limits must not read.
// Also its CPU time against the verify's, and sign-ins per second with 20 in flight against verifies
// per second with 20 in flight (argon2id runs on libuv's thread pool, so both use every core).
import { eq, sql } from 'drizzle-orm';
import { startFoyer } from '../server/testing.ts';
import { users } from '../server/db/schema.ts';
import { verifyPassword } from '../server/auth/passwords.ts';
import { DEMO_PASSWORD } from '../server/seed/demo.ts';
import { compareCpuMs, compareMs, compareRate, SERVER_WARM_UP } from './measure.ts';
import { createMember } from '../tests/server/password/helpers.ts';
import type { BenchEntry, Figure } from './types.ts';

const EMAIL = 'owner@demo.foyer.test';
const IN_FLIGHT = 20;

const entry: BenchEntry = {
  title: 'password sign-in',
  async run() {
    const foyer = await startFoyer();
    try {
      const [user] = await foyer.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.email, EMAIL));
      const hash = user!.passwordHash!;
      const signInAs = async (email: string, password: string) => {
        const response = await foyer.foyer.auth.inject({
          method: 'POST',
          url: '/auth/authenticate',
          headers: { 'content-type': 'application/json', 'x-app-id': foyer.demo.appId, origin: foyer.urls.ui },
          payload: JSON.stringify({ username: email, password }),
        });
        if (response.statusCode !== 200) throw new Error(`Sign-in answered ${response.statusCode}: ${response.body}`);
      };
      const signIn = () => signInAs(EMAIL, DEMO_PASSWORD);
      const verify = async () => {
        if (!(await verifyPassword(hash, DEMO_PASSWORD))) throw new Error('The demo password does not verify');
      };
      const figures: Figure[] = [];
      const measure = async (name: string, warmup: number) => {
        const { value, floor, spread } = await compareMs(signIn, verify, { runs: 15, warmup });
        figures.push({ name, value, unit: 'ms', spread, floor: { name: 'bare argon2id verify', value: floor } });
      };
      await measure('POST /auth/authenticate, right password', SERVER_WARM_UP);
      const cpu = await compareCpuMs(signIn, verify, { runs: 9, batch: 3 });
      figures.push({
        name: 'the same, CPU time',
        value: cpu.value,
        unit: 'ms',
        spread: cpu.spread,
        floor: { name: 'bare argon2id verify, CPU time', value: cpu.floor },
      });
      // 20 people signing in at once: one person's sign-ins in flight together would meet the login
      // limit, which counts each attempt until it succeeds.
      const people = await Promise.all(Array.from({ length: IN_FLIGHT }, () => createMember(foyer, { workspaces: ['Acme'] })));
      const [person] = await foyer.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.email, people[0]!.email));
      const peopleHash = person!.passwordHash!;
      const rate = await compareRate(
        (slot) => signInAs(people[slot]!.email, people[slot]!.password!),
        async (slot) => {
          if (!(await verifyPassword(peopleHash, people[slot]!.password!))) throw new Error('The member password does not verify');
        },
        { inFlight: IN_FLIGHT, total: 2 * IN_FLIGHT },
      );
      figures.push({
        name: 'sign-ins per second, 20 people at once',
        value: rate.value,
        unit: '/s',
        spread: rate.spread,
        floor: { name: 'bare argon2id verifies per second, 20 in flight', value: rate.floor },
      });
      // Sign-ins and wrong passwords of 5,000 other people from 1,000 other addresses, spread over 15 minutes.
      await foyer.db.execute(sql`
        insert into audit_events (app_id, type, ip, detail, created_at)
        select ${foyer.demo.appId}, case when n % 3 = 0 then 'login.failure' else 'login.success' end,
          '10.1.' || (n % 1000 / 256) || '.' || (n % 1000 % 256), jsonb_build_object('username', 'person' || (n % 5000) || '@bench.foyer.test'),
          now() - make_interval(secs => n % 900)
        from generate_series(1, 150000) as n`);
      await measure('the same, 150,000 audit events of the app in 15 minutes', 3);
      return figures;
    } finally {
      await foyer.close();
    }
  },
};

export default entry;
