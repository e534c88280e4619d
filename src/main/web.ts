/**
 * Web mode: the same engine as the desktop app, in plain Node, serving the built renderer to a
 * browser on 127.0.0.1. For machines without a desktop, and for end-to-end tests.
 */
import os from 'node:os';
import path from 'node:path';
import { APP_NAME, APP_VERSION } from './appIdentity';
import { startWebServer } from './bridge/webServer';
import { osAppDataDir, resolveDataDir } from './dataDir';
import { startEngine, type Engine } from './engine';
import { openInBrowser } from './openBrowser';
import { parseWebArgs, WEB_USAGE } from './webArgs';

async function main(): Promise<number> {
  const args = parseWebArgs(process.argv.slice(2));
  if ('error' in args) {
    console.error(`${args.error}\n\n${WEB_USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(WEB_USAGE);
    return 0;
  }

  const { dir: dataDir } = resolveDataDir({
    flag: args.dataDir,
    env: process.env,
    defaultDir: path.join(osAppDataDir(process.platform, process.env, os.homedir()), APP_NAME),
    cwd: process.cwd(),
  });

  let engine: Engine;
  try {
    engine = startEngine({ dataDir, mode: 'web', version: APP_VERSION });
  } catch (error) {
    console.error(`PortalDesk could not start: ${error instanceof Error ? error.message : error}`);
    return 1;
  }

  let server;
  try {
    server = await startWebServer({
      dispatcher: engine.dispatcher,
      events: engine.events,
      staticDir: path.join(__dirname, '../renderer'),
      port: args.port,
    });
  } catch (error) {
    engine.close();
    const detail = error instanceof Error ? error.message : String(error);
    console.error(`PortalDesk could not listen on 127.0.0.1:${args.port}: ${detail}`);
    return 1;
  }

  console.log(`PortalDesk ${APP_VERSION} (web mode) is running at ${server.url}`);
  console.log(`  data directory: ${dataDir}`);
  console.log('  the address carries a secret for this launch only; press Ctrl+C to stop');

  if (args.open && !(await openInBrowser(server.url))) {
    console.log('  could not open a browser here: open the address above yourself');
  }

  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  engine.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
