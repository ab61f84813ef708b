import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      projects: [
        {
          extends: true,
          test: {
            name: 'unit',
            environment: 'jsdom',
            include: ['tests/unit/**/*.test.{ts,tsx}', 'sdk/react/src/**/*.test.{ts,tsx}'],
          },
        },
        {
          extends: true,
          // Node loads graphql's CommonJS build for graphql-yoga; Vite would pick its ESM build for
          // server code, and two copies of graphql break instanceof checks between them.
          resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
          test: {
            name: 'server',
            environment: 'node',
            include: ['tests/server/**/*.test.ts'],
            // The start commands always run on embedded PGlite; the PostgreSQL pass skips them.
            exclude:
              process.env.FOYER_TEST_DB === 'postgres' ? ['tests/server/start.test.ts', 'tests/server/production-build.test.ts'] : [],
            // Migrates one template database per run; every test file clones it.
            globalSetup: ['tests/server/global-setup.ts'],
            testTimeout: 30_000,
            hookTimeout: 30_000,
          },
        },
        {
          extends: true,
          resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
          test: {
            name: 'e2e',
            environment: 'node',
            include: ['e2e/**/*.e2e.ts'],
            globalSetup: ['tests/server/global-setup.ts'],
            // One Chromium at a time on a 2-core machine.
            fileParallelism: false,
            // A browser step (a sign-up's argon2id hash, a page's hydration and first query) can take
            // seconds on a busy 2-core machine; expect.poll's own default of 1 s failed them there.
            expect: { poll: { timeout: 10_000 } },
            testTimeout: 60_000,
            hookTimeout: 60_000,
          },
        },
      ],
    },
  }),
);
