// `npm start`: open and migrate the database, seed the demo on first start (development only),
// start the three listeners, and shut down cleanly on Ctrl-C / SIGTERM. In production it runs as
// the bundle scripts/build-server.ts makes (`npm run start:prod`).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { asc, ne } from 'drizzle-orm';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { apps } from './db/schema.ts';
import { lockDataDir } from './data-dir-lock.ts';
import type { DemoData } from './seed/demo.ts';

// Until the listeners are up nothing keeps Node's event loop busy while the start awaits the embedded
// database's WebAssembly, so Node finds the loop empty and waits for V8's background compilations of
// that WebAssembly to finish (its platform's DrainTasks) before going on: about a quarter of a second
// of a start spent idle (npm run bench -- server-start). This timer keeps the loop busy meanwhile.
const startHeld = setInterval(() => undefined, 60_000);
const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    // A setting Foyer will not start with: the operator reads why, not a stack trace.
    console.error(`Foyer cannot start: ${(error as Error).message}`);
    process.exit(1);
  }
})();
await mkdir(config.dataDir, { recursive: true });
// The embedded database is one process's: a second one on the same folder would corrupt it.
let releaseDataDir: (() => Promise<void>) | undefined;
if (!config.databaseUrl) {
  try {
    releaseDataDir = await lockDataDir(config.dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    console.error(
      `The data folder ${config.dataDir} is in use by another Foyer process. Stop it first; to run several instances, give each the same DATABASE_URL (PostgreSQL) instead of a data folder.`,
    );
    process.exit(1);
  }
}
// The embedded database's start runs partly off the main thread (compiling its WebAssembly, reading
// its files): the listeners' modules load meanwhile (bench/server-start.bench.ts).
const [database, { createFoyer }, { seedDemo }, { CONSOLE_APP_ID, ensureConsoleApp }] = await Promise.all([
  openDatabase(config),
  import('./app.ts'),
  import('./seed/demo.ts'),
  import('./apps/console.ts'),
]);
await database.migrate();

const demoFile = path.join(config.dataDir, 'demo.json');
const existingApps = await database.db.select({ id: apps.id }).from(apps).where(ne(apps.id, CONSOLE_APP_ID)).orderBy(asc(apps.createdAt));
let demo: DemoData | undefined;
if (existingApps.length === 0 && config.env === 'development') {
  demo = await seedDemo(database.db, config.urls);
  await writeFile(demoFile, `${JSON.stringify(demo, null, 2)}\n`);
} else if (config.env === 'development') {
  demo = await readFile(demoFile, 'utf8').then(
    (text) => JSON.parse(text) as DemoData,
    () => undefined,
  );
}

await ensureConsoleApp(database.db, config.urls);

const appId = process.env.FOYER_APP_ID ?? demo?.appId ?? existingApps[0]?.id ?? '';
const foyer = await createFoyer({ config, db: database.db, appId });
await foyer.listen();
clearInterval(startHeld);

const lines = [
  `Foyer is running (${config.env})`,
  `  hosted UI     ${config.urls.ui}`,
  `  auth service  ${config.urls.auth}`,
  `  API host      ${config.urls.api}`,
  `  configurator  ${config.urls.ui}/configurator`,
];
if (config.env === 'development') lines.push(`  mailbox       ${config.urls.ui}/dev/mailbox`);
if (demo) {
  lines.push(`  demo app id   ${demo.appId}`, '  demo users (written to ' + demoFile + '):');
  for (const user of demo.users) lines.push(`    ${user.email} / ${user.password}  (${user.workspaces.join(', ')})`);
}
console.log(lines.join('\n'));

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping Foyer`);
  await foyer.close();
  await database.close();
  await releaseDataDir?.();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
