/**
 * The renderer while the engine syncs (bench/scale.bench.ts, second part): web mode on a copy of
 * bench:ui's mirror (one module of a million records, bench/uiMirror.bench.ts) in the system's
 * Chromium, scrolling that module up and down while the same engine process syncs an account
 * signed in to the bench emulator. The sign-in goes through web mode's own calls, as the first-run
 * screen makes them (accounts.addProfile, then accounts.selfClient with a Self Client code), so the
 * engine starts its first sync itself; a signed-in service needs the OS keychain, so web mode runs
 * with a throw-away gnome-keyring (test/e2e/keychainWebMode.ts). The scroll starts once the sync
 * stores records (it reads portals, modules and settings first) and goes on until that sync ends
 * or `scrollS` seconds have passed, whichever is first; web mode is then stopped.
 */
import { chromium } from '@playwright/test';
import Database from 'better-sqlite3';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { emulatorServiceProfile } from '../src/main/api/client/emulatorProfile';
import { startWebModeWithKeychain } from '../test/e2e/keychainWebMode';
import type { RunningWebMode } from '../test/e2e/webMode';
import { percentile } from './queryProbe';
import { processCpuSeconds, type BenchEmulator } from './startBenchEmulator';

/** One scroll from the top to the end (or back) of the list, as bench:ui's single pass. */
const PASS_MS = 5000;
const PROFILE_ID = 'scale-bench';
/** How long the sync may take to store its first records before the benchmark gives up. */
const FIRST_RECORDS_WAIT_S = 900;

/**
 * Run in the page (a string: this file is typed for Node, not the DOM): scrolls the grid from the
 * top to the end in PASS_MS and back, one step per animation frame, until `window.__stopScroll`,
 * then resolves with the time between frames (ms). bench/ui.mjs's scroll, repeated.
 */
const SCROLL_UNTIL_STOPPED = `(async () => {
  const body = document.querySelector('.grid-body');
  body.scrollTop = 0;
  await new Promise((resolve) => requestAnimationFrame(resolve));
  const intervals = [];
  return new Promise((resolve) => {
    let start = null;
    let last = null;
    let down = true;
    const step = (time) => {
      if (start === null) start = time;
      if (last !== null) intervals.push(time - last);
      last = time;
      const progress = Math.min(1, (time - start) / ${PASS_MS});
      const end = body.scrollHeight - body.clientHeight;
      body.scrollTop = (down ? progress : 1 - progress) * end;
      if (progress >= 1) {
        down = !down;
        start = time;
      }
      if (window.__stopScroll) resolve(intervals);
      else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
})()`;

export interface ScrollDuringSyncOptions {
  emulator: BenchEmulator;
  /** bench:ui's filled data directory: copied, never changed. */
  mirrorDir: string;
  scrollS: number;
  log: (message: string) => void;
}

export interface ScrollDuringSync {
  /** The longest frame of the scroll (ms between animation frames). */
  longest_frame_ms: number;
  frame_p99_ms: number | null;
  frames: number;
  scroll_s: number;
  /** Records in the module scrolled (what its grid says). */
  scrolled_records: number;
  /** Seconds from the sign-in to the sync's first stored records, when the scroll began. */
  first_stored_s: number;
  /** The emulator's records in web mode's mirror when the scroll began and when it ended. */
  stored_at_start: number;
  stored_at_end: number;
  /** The sync's state when the scroll ended: running, or how it ended. */
  sync_state: string;
  /** Web mode's CPU time over the scroll (null off Linux or inside a D-Bus session already). */
  web_cpu_s: number | null;
  emulator_cpu_s: number | null;
}

interface SyncRun {
  state: string;
  records: number;
  endedAt: number | null;
}

const round1 = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);

/** A call of web mode's contract over its HTTP bridge, as the page makes it. */
async function call<T>(web: RunningWebMode, name: string, args?: unknown): Promise<T> {
  const secret = new URL(web.url).hash.replace('#secret=', '');
  const response = await fetch(`${web.origin}/api/call/${name}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
    body: args === undefined ? '' : JSON.stringify(args),
  });
  const outcome = (await response.json()) as
    { ok: true; value: T } | { ok: false; error: { message: string } };
  if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`);
  return outcome.value;
}

/** The newest sync run of web mode (running first), or null before any. */
async function latestRun(web: RunningWebMode): Promise<SyncRun | null> {
  const status = await call<{ running: SyncRun[]; log: SyncRun[] }>(web, 'sync.status');
  return status.running[0] ?? status.log[0] ?? null;
}

export async function scrollDuringSync(
  options: ScrollDuringSyncOptions,
): Promise<ScrollDuringSync> {
  const { emulator, log } = options;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-bench-scale-ui-'));
  let web: RunningWebMode | undefined;
  let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
  try {
    log(`copying the mirror of ${options.mirrorDir}`);
    cpSync(options.mirrorDir, dataDir, { recursive: true });
    web = await startWebModeWithKeychain({ dataDir });
    const webPid = /^web-pid (\d+)$/m.exec(web.output());
    const webCpu = () => (webPid ? processCpuSeconds(Number(webPid[1])) : null);
    browser = await chromium.launch({
      executablePath: process.env.PORTALDESK_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.on('pageerror', (error) => log(`page error: ${error.message}`));
    await page.goto(web.url);
    // Nobody is signed in yet: the first visit may show the first-run screen (as in bench:ui).
    const skip = page.getByRole('button', { name: 'Skip for now' });
    const row = page.locator('.grid-row:not(.is-loading)');
    await skip.or(row).first().waitFor({ timeout: 120_000 });
    if (await skip.isVisible()) await skip.click();
    await row.first().waitFor({ timeout: 120_000 });
    const scrolledRecords = Number(await page.locator('.grid').getAttribute('data-total'));
    log(`the grid lists ${scrolledRecords} records; signing in to the emulator`);

    // The sign-in, as the first-run screen makes it; the engine then starts its first sync.
    const profile = emulatorServiceProfile(emulator.facts, {
      id: PROFILE_ID,
      name: 'Scale bench emulator',
    });
    const profiles = await call<{ id: string; defaultScopes: { read: string[] } }[]>(
      web,
      'accounts.addProfile',
      { profile },
    );
    const scopes = profiles.find((p) => p.id === PROFILE_ID)!.defaultScopes.read.join(',');
    await call(web, 'accounts.selfClient', {
      profileId: PROFILE_ID,
      dataCenter: 'us',
      clientId: emulator.facts.client_id,
      clientSecret: emulator.facts.client_secret,
      code: await emulator.selfClientCode(scopes),
      scopes,
    });

    const signedInAt = performance.now();
    // What the sync has stored, read on a connection of our own (WAL: it never blocks the engine).
    const db = new Database(path.join(dataDir, 'portaldesk.sqlite'), { readonly: true });
    const count = db.prepare('SELECT count(*) FROM records WHERE portal_id = ?').pluck();
    const stored = () =>
      emulator.facts.portals.reduce((sum, portal) => sum + (count.get(portal) as number), 0);
    // The run reads the portals, their modules and each module's settings before records arrive:
    // the scroll starts once records are being stored.
    for (let waited = 0; stored() === 0; waited += 1) {
      if (waited >= FIRST_RECORDS_WAIT_S) {
        throw new Error(`Web mode's sync stored no records in ${FIRST_RECORDS_WAIT_S} s.`);
      }
      if (waited % 30 === 29) log(`waiting for the sync's first records (${waited + 1} s)`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const firstStoredS = (performance.now() - signedInAt) / 1000;
    const scrolling = page.evaluate(SCROLL_UNTIL_STOPPED) as Promise<number[]>;
    const began = performance.now();
    const webCpuBefore = webCpu();
    const emulatorCpuBefore = emulator.cpuSeconds();
    const atStart = stored();
    let run: SyncRun | null = null;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      run = await latestRun(web);
      if (run && run.endedAt !== null) break;
      if (performance.now() - began >= options.scrollS * 1000) break;
    }
    await page.evaluate('window.__stopScroll = true');
    const frames = await scrolling;
    const scrollS = (performance.now() - began) / 1000;
    const atEnd = stored();
    db.close();
    const webCpuAfter = webCpu();
    const emulatorCpuAfter = emulator.cpuSeconds();
    log(
      `${frames.length} frames in ${scrollS.toFixed(1)} s of scrolling; the sync had stored ${atStart} → ${atEnd} records (${run?.state ?? 'no run'})`,
    );
    const delta = (before: number | null, after: number | null) =>
      before === null || after === null ? null : Math.round((after - before) * 100) / 100;
    return {
      longest_frame_ms: round1(Math.max(...frames))!,
      frame_p99_ms: round1(percentile(frames, 0.99)),
      frames: frames.length,
      scroll_s: Math.round(scrollS * 10) / 10,
      scrolled_records: scrolledRecords,
      first_stored_s: Math.round(firstStoredS * 10) / 10,
      stored_at_start: atStart,
      stored_at_end: atEnd,
      sync_state: run?.state ?? 'none',
      web_cpu_s: delta(webCpuBefore, webCpuAfter),
      emulator_cpu_s: delta(emulatorCpuBefore, emulatorCpuAfter),
    };
  } finally {
    await browser?.close();
    await web?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
