// @vitest-environment node
// What the built server loads at start: server/main.ts, the modules it imports while the database
// opens (its dynamic imports) and everything those import statically. Parts that most starts never
// use load on first use instead (docs/production.md); esbuild's account of the bundle
// (scripts/build-server.ts) shows a static import that pulls one of them back into every start.
import { build } from 'esbuild';
import { expect, it } from 'vitest';
import { serverBuildOptions } from '../../../scripts/build-server.ts';

/**
 * Loaded on first use: the GraphQL engine (graphql's index, Yoga, the query limits), payments, SMTP, SAML, WebAuthn, TOTP's QR codes,
 * the public mail domain lists.
 */
const FIRST_USE = [
  'node_modules/graphql/index.js',
  'node_modules/graphql-yoga/',
  'node_modules/@escape.tech/',
  'node_modules/stripe/',
  'node_modules/nodemailer/',
  'node_modules/@node-saml/',
  'node_modules/@simplewebauthn/server/',
  'node_modules/qrcode/',
  'node_modules/email-providers/',
  'node_modules/mailchecker/',
];

async function startModules(): Promise<string[]> {
  const { metafile } = await build({ ...serverBuildOptions, metafile: true, logLevel: 'silent' });
  const entry = 'server/main.ts';
  const loadedWhileTheDatabaseOpens = metafile.inputs[entry]!.imports.filter((imported) => imported.kind === 'dynamic-import');
  expect(loadedWhileTheDatabaseOpens.map((imported) => imported.path)).toContain('server/app.ts');
  const reached = new Set([entry, ...loadedWhileTheDatabaseOpens.map((imported) => imported.path)]);
  for (const file of reached) {
    for (const imported of metafile.inputs[file]?.imports ?? []) {
      if (imported.kind !== 'dynamic-import' && !imported.external) reached.add(imported.path);
    }
  }
  return [...reached];
}

it('loads none of the parts used on first use at start', async () => {
  const modules = await startModules();
  expect(modules).toContain('node_modules/fastify/fastify.js');
  expect(modules.filter((file) => FIRST_USE.some((part) => file.startsWith(part)))).toEqual([]);
}, 60_000);
