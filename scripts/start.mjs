/**
 * `npm start`: checks that the desktop shell can run, makes sure better-sqlite3 is built for
 * Electron, then builds the app and opens it. Extra arguments go to the app:
 *
 *   npm start -- --data-dir ./scratch
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const electronDir = path.join(root, 'node_modules', 'electron');
const electronVite = path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');

const NO_ELECTRON =
  "PortalDesk's desktop shell needs the Electron binary, which is not installed here (installs with ELECTRON_SKIP_BINARY_DOWNLOAD=1 skip it). Run `npm run web` to use PortalDesk in your browser, or reinstall Electron with network access: `node node_modules/electron/install.js`.";

/**
 * Where electron-vite will look for the Electron executable: ELECTRON_EXEC_PATH, else
 * node_modules/electron/dist/<path.txt>. Checked here because requiring 'electron' without the
 * binary throws a stack trace instead of saying what to do.
 */
function electronBinary() {
  if (process.env.ELECTRON_EXEC_PATH) return process.env.ELECTRON_EXEC_PATH;
  const pathFile = path.join(electronDir, 'path.txt');
  if (!fs.existsSync(pathFile)) return undefined;
  return path.join(electronDir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
}

let running;

// Ctrl+C reaches the running step directly (same terminal), so wait for it to finish rather than
// dying first; a SIGTERM sent to this script alone is passed on.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => running?.kill('SIGTERM'));

/** Runs `node <script> ...args` with the terminal attached; resolves with its exit code. */
function runNode(script, args) {
  return new Promise((resolve) => {
    running = spawn(process.execPath, [script, ...args], { cwd: root, stdio: 'inherit' });
    running.on('error', (error) => {
      console.error(`start: could not run ${path.basename(script)}: ${error.message}`);
      resolve(1);
    });
    running.on('close', (code, signal) => {
      running = undefined;
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

async function main() {
  if (!fs.existsSync(electronDir)) {
    console.error('start: Electron is not installed in node_modules; run `npm install` first.');
    return 1;
  }
  const binary = electronBinary();
  if (!binary || !fs.existsSync(binary)) {
    console.error(NO_ELECTRON);
    return 1;
  }

  // Quick when native/electron already matches the installed Electron and better-sqlite3.
  const native = await runNode(path.join(root, 'scripts', 'electron-native.mjs'), []);
  if (native !== 0) return native;

  // electron-vite is run through Node rather than node_modules/.bin, so no shell is needed on
  // Windows and app arguments (paths with spaces) reach Electron unquoted and intact.
  const built = await runNode(electronVite, ['build']);
  if (built !== 0) return built;

  // preview starts Electron with whatever follows `--` (electron-vite's ELECTRON_CLI_ARGS).
  const appArgs = process.argv.slice(2);
  return runNode(electronVite, [
    'preview',
    '--skipBuild',
    ...(appArgs.length ? ['--', ...appArgs] : []),
  ]);
}

process.exitCode = await main();
