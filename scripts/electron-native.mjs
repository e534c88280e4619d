/**
 * Builds better-sqlite3 for the installed Electron into native/electron/better_sqlite3.node.
 *
 * node_modules/better-sqlite3 keeps its Node build, which tests and web mode load; Electron has a
 * different ABI, so the desktop app loads this separate copy through better-sqlite3's
 * `nativeBinding` option (src/main/nativeBindingPath.ts). The build happens in a temporary copy
 * of the package so node_modules/better-sqlite3/build is never touched.
 *
 * Usage: node scripts/electron-native.mjs [--force] [--arch <arch>] [--verbose]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sqliteDir = path.join(root, 'node_modules', 'better-sqlite3');
const outDir = path.join(root, 'native', 'electron');
const outBinary = path.join(outDir, 'better_sqlite3.node');
const stampFile = path.join(outDir, 'stamp.json');
const logFile = path.join(outDir, 'build.log');
const logName = path.relative(root, logFile);
const ELECTRON_HEADERS = 'https://electronjs.org/headers';
const USAGE = 'node scripts/electron-native.mjs [--force] [--arch <arch>] [--verbose]';

/**
 * Everything the build tools print goes to native/electron/build.log. Written synchronously so a
 * failure that exits right away still leaves the whole log behind.
 */
function openLog() {
  const fd = fs.openSync(logFile, 'w');
  return { write: (chunk) => fs.writeSync(fd, chunk), close: () => fs.closeSync(fd) };
}

/** The running child and the temp dir, so a failure or an interrupt can still clean up. */
const current = { child: undefined, workDir: undefined };

function removeWorkDir() {
  if (current.workDir) fs.rmSync(current.workDir, { recursive: true, force: true });
  current.workDir = undefined;
}

/** Ends the script with one line saying what went wrong and what to do about it. */
function fail(message) {
  removeWorkDir();
  console.error(`electron-native: ${message}`);
  process.exit(1);
}

/** Stops the build tool and, on POSIX, everything it started (make, the compiler). */
function stopChild(signal) {
  const { child } = current;
  if (!child?.pid) return;
  try {
    if (process.platform === 'win32') child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

// Ctrl+C during a build would otherwise leave a compiler running and a copy of better-sqlite3 in
// the temp dir.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopChild(signal);
    removeWorkDir();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** What the binary has to match; the stamp records it so unchanged installs skip the build. */
function wantedTarget(arch) {
  const electron = readJson(path.join(root, 'node_modules', 'electron', 'package.json'))?.version;
  if (!electron) fail('Electron is not installed in node_modules; run `npm install` first.');
  const betterSqlite3Version = readJson(path.join(sqliteDir, 'package.json'))?.version;
  if (!betterSqlite3Version) {
    fail('better-sqlite3 is not installed in node_modules; run `npm install` first.');
  }
  return { electron, platform: process.platform, arch, betterSqlite3Version };
}

function isUpToDate(target) {
  const stamp = readJson(stampFile);
  return (
    fs.existsSync(outBinary) &&
    stamp !== undefined &&
    Object.entries(target).every(([key, value]) => stamp[key] === value)
  );
}

/**
 * The child environment. ~/.npmrc may set nodedir (npm exports it as npm_config_nodedir), which
 * would make node-gyp compile against Node's headers instead of Electron's.
 */
function childEnv() {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => key.toLowerCase() !== 'npm_config_nodedir'),
  );
}

/**
 * Runs `node <script> ...args` in cwd. Output goes to the log (and the terminal if verbose) and is
 * returned too, so a failure can be explained.
 */
function runNode(script, args, { cwd, log, verbose }) {
  return new Promise((resolve) => {
    log.write(`\n$ node ${path.basename(script)} ${args.join(' ')}\n`);
    let output = '';
    const child = spawn(process.execPath, [script, ...args], {
      cwd,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so an interrupt can stop make and the compiler too (POSIX).
      detached: process.platform !== 'win32',
    });
    current.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk) => {
        output += chunk;
        log.write(chunk);
        if (verbose) process.stderr.write(chunk);
      });
    }
    child.on('error', (error) => {
      current.child = undefined;
      log.write(`${error.message}\n`);
      resolve({ ok: false, output: output + error.message });
    });
    child.on('close', (code) => {
      current.child = undefined;
      resolve({ ok: code === 0, output });
    });
  });
}

/** prebuild-install is better-sqlite3's own dependency, so resolve it from there. */
function findPrebuildInstall() {
  try {
    return createRequire(path.join(sqliteDir, 'package.json')).resolve('prebuild-install/bin.js');
  } catch {
    return undefined;
  }
}

/** The node-gyp npm would use, else a local one, else the copy bundled with npm. */
function findNodeGyp() {
  const npmDir =
    process.platform === 'win32'
      ? path.join(path.dirname(process.execPath), 'node_modules', 'npm')
      : path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm');
  const candidates = [
    process.env.npm_config_node_gyp,
    path.join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    path.join(npmDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  return candidates.find((file) => file && fs.existsSync(file));
}

/** A copy of the package without its build/ (the Node build stays where it is). */
function copyPackage(workDir) {
  const skip = new Set(['build', 'node_modules'].map((name) => path.join(sqliteDir, name)));
  fs.cpSync(sqliteDir, workDir, { recursive: true, filter: (src) => !skip.has(src) });
}

/** Why neither a download nor a compile produced a binary; becomes the one-line failure. */
class BuildError extends Error {}

/** True when node-gyp stopped before compiling because the Electron headers did not download. */
function isNetworkFailure(output) {
  const downloadFailed =
    /gyp WARN install got an error|network connectivity|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH/;
  return downloadFailed.test(output) && !/gyp info spawn (make|msbuild)/i.test(output);
}

/**
 * A download first (fast, no compiler needed), else compiling from source. Returns how the binary
 * was made, or throws a BuildError saying why neither worked.
 */
async function build(target, workDir, log, verbose) {
  const options = { cwd: workDir, log, verbose };
  const prebuildInstall = findPrebuildInstall();
  if (prebuildInstall) {
    const args = [
      '--runtime=electron',
      `--target=${target.electron}`,
      `--arch=${target.arch}`,
      `--platform=${target.platform}`,
    ];
    if ((await runNode(prebuildInstall, args, options)).ok) return 'downloaded a prebuilt binary';
  }
  const nodeGyp = findNodeGyp();
  if (!nodeGyp) {
    throw new BuildError('no prebuilt binary could be downloaded and node-gyp was not found');
  }
  const args = [
    'rebuild',
    '--release',
    '--jobs=max',
    '--runtime=electron',
    `--target=${target.electron}`,
    `--dist-url=${ELECTRON_HEADERS}`,
    `--arch=${target.arch}`,
  ];
  const gyp = await runNode(nodeGyp, args, options);
  if (gyp.ok) return 'compiled from source';
  throw new BuildError(
    isNetworkFailure(gyp.output)
      ? "it needs network access to download a prebuilt binary or Electron's headers (electronjs.org); run `npm run native:electron` again where the network is available"
      : 'no prebuilt binary was available and compiling failed; install python3, make and a C++ compiler (Xcode Command Line Tools on macOS, Visual Studio Build Tools on Windows), then run `npm run native:electron` again',
  );
}

function parseOptions() {
  try {
    const { values } = parseArgs({
      options: {
        force: { type: 'boolean', default: false },
        arch: { type: 'string', default: process.arch },
        verbose: { type: 'boolean', default: false },
      },
    });
    return values;
  } catch (error) {
    return fail(`${error.message}. Usage: ${USAGE}`);
  }
}

async function main() {
  const values = parseOptions();
  const target = wantedTarget(values.arch);
  const label = `better-sqlite3 ${target.betterSqlite3Version} for Electron ${target.electron} (${target.platform}-${target.arch})`;

  if (!values.force && isUpToDate(target)) {
    console.log(`electron-native: ${label} is up to date.`);
    return;
  }

  console.log(`electron-native: building ${label}...`);
  fs.mkdirSync(outDir, { recursive: true });
  const log = openLog();
  current.workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portaldesk-sqlite-'));
  try {
    copyPackage(current.workDir);
    const how = await build(target, current.workDir, log, values.verbose);
    // Copy then rename, so an interrupted copy never leaves a half-written binary behind.
    const built = path.join(current.workDir, 'build', 'Release', 'better_sqlite3.node');
    fs.copyFileSync(built, `${outBinary}.tmp`);
    fs.renameSync(`${outBinary}.tmp`, outBinary);
    fs.writeFileSync(stampFile, `${JSON.stringify(target, null, 2)}\n`);
    console.log(`electron-native: ${how}: ${path.relative(root, outBinary)}`);
  } catch (error) {
    if (!(error instanceof BuildError)) throw error;
    fail(`could not build ${label}: ${error.message}; details in ${logName}.`);
  } finally {
    removeWorkDir();
    log.close();
  }
}

main().catch((error) => {
  fail(`unexpected error: ${error instanceof Error ? error.message : String(error)}`);
});
