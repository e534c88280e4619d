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
import { runCommand } from './runCommand';
import { parseWebArgs, WEB_USAGE, type WebArgs } from './webArgs';
import { LAUNCH_PAGE_FILE, openWebAddress } from './webLaunch';
import { webOpeners } from './webOpeners';

async function main(args: WebArgs, untilStopped: () => Promise<void>): Promise<number> {
  const { dir: dataDir } = resolveDataDir({
    flag: args.dataDir,
    env: process.env,
    defaultDir: path.join(osAppDataDir(process.platform, process.env, os.homedir()), APP_NAME),
    cwd: process.cwd(),
  });

  let engine: Engine;
  try {
    engine = startEngine({
      dataDir,
      mode: 'web',
      version: APP_VERSION,
      // Sign-in pages open in the OS browser; with --no-open (or no browser) the address is printed.
      ...webOpeners({ open: args.open, dir: dataDir }),
    });
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
      files: (token) => engine.backups.resolveDownload(token),
      exportFiles: (token) => engine.exports.resolveDownload(token),
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

  // Through a page in the data directory: a browser's command line would show the secret.
  const launch = args.open ? await openWebAddress(server.url, { dir: dataDir }) : null;
  if (launch && !launch.opened) {
    console.log('  could not open a browser here: open the address above yourself');
  } else if (launch) {
    // A sandboxed browser (Ubuntu's snap Firefox and Chromium) may not read files in hidden
    // folders such as the data directory: it shows an error instead of going on.
    console.log(
      `  the browser was sent through ${LAUNCH_PAGE_FILE}; if it shows an error there, open the address above yourself`,
    );
  }

  await untilStopped();
  launch?.cleanup();
  await server.close();
  engine.close();
  return 0;
}

runCommand({ usage: WEB_USAGE, parse: parseWebArgs, run: main });
