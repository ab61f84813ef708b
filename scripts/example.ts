// `npm run example`: Foyer (as `npm start` runs it, with its own data folder so the demo app is
// seeded with the example's callback) and the example host app's dev server on
// http://localhost:3330 (examples/host-app), configured from the demo seed. Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer, type ViteDevServer } from 'vite';
import type { DemoData } from '../server/seed/demo.ts';
import { EXAMPLE_HOST_APP_ORIGIN } from '../server/seed/demo.ts';

const dataDir = process.env.FOYER_DATA_DIR ?? path.join('.foyer', 'example');
const foyer = spawn('npm', ['start'], { stdio: 'inherit', env: { ...process.env, FOYER_DATA_DIR: dataDir } });
let stopping = false;
foyer.on('exit', (code) => {
  if (!stopping) {
    console.error(`Foyer stopped (exit code ${code}); stopping the example`);
    process.exit(code ?? 1);
  }
});

/** The demo seed's answer once Foyer listens: written by server/main.ts on the first start. */
async function demoWhenReady(): Promise<DemoData> {
  for (;;) {
    const demo = await readFile(path.join(dataDir, 'demo.json'), 'utf8').then(
      (text) => JSON.parse(text) as DemoData,
      () => undefined,
    );
    const answering =
      demo &&
      (await fetch(`${demo.urls.auth}/.well-known/openid-configuration`).then(
        (r) => r.ok,
        () => false,
      ));
    if (demo && answering) return demo;
    await sleep(500);
  }
}

async function startExample() {
  const demo = await demoWhenReady();
  process.env.FOYER_EXAMPLE_CONFIG = JSON.stringify({ authOrigin: demo.urls.auth, hostedUiOrigin: demo.urls.ui, appId: demo.appId });
  const server = await createServer({ configFile: path.join('examples', 'host-app', 'vite.config.ts') });
  await server.listen();
  console.log(`\nExample host app  ${EXAMPLE_HOST_APP_ORIGIN}  (sign in as ${demo.users[0]!.email} / ${demo.users[0]!.password})`);
  return server;
}

let example: ViteDevServer | undefined;
try {
  example = await startExample();
} catch (error) {
  console.error(error);
  await stop(1);
}

async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  await example?.close();
  foyer.on('exit', () => process.exit(code));
  foyer.kill('SIGTERM');
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
