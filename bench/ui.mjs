// The records workspace in a browser on a mirror of a million records: web mode on a data
// directory filled by bench/uiMirror.bench.ts (built once, then reused from the OS temp folder),
// driven by Playwright in the system's Chromium. Prints one JSON object:
//
//   records           records in the module the table shows
//   first_rows_ms     page navigation to the first rows painted
//   filter_p95_ms     a filter change (Status is X, alternating) to its rows painted, p95
//   sort_p95_ms       a sort change (name and last updated, both ways) to its rows painted, p95
//   scroll_fps_median frames per second while scrolling from the top to the end in 5 seconds
//   longest_frame_ms  the longest frame of that scroll
//   renderer_mb       the page's JS heap right after the scroll
//
// More detail (every sample, sorts and filters the targets do not cover) goes to stderr.
// Needs a build (out/main/web.js):
//
//   electron-vite build --logLevel warn && node bench/ui.mjs [--records 1000000] [--fresh]
// Functions passed to page.evaluate run in the page, where these exist.
/* global window, document, MutationObserver, requestAnimationFrame */
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    fresh: { type: 'boolean', default: false },
    runs: { type: 'string', default: '20' },
  },
});
const RECORDS = Number(args.records);
const RUNS = Number(args.runs);
const SCROLL_MS = 5000;
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dataDir = path.join(os.tmpdir(), `portaldesk-ui-bench-${RECORDS}`);
const log = (...parts) => console.error('[bench:ui]', ...parts);

function run(command, argv, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${command} exited with ${code}:\n${output}`)),
    );
  });
}

async function ensureMirror() {
  const marker = path.join(dataDir, 'ui-mirror.json');
  if (!args.fresh && existsSync(marker)) {
    const { records } = JSON.parse(readFileSync(marker, 'utf8'));
    if (records === RECORDS) {
      log(`reusing the mirror in ${dataDir}`);
      return;
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  log(`filling a mirror of ${RECORDS} records in ${dataDir} (minutes for a million)…`);
  const started = Date.now();
  await run(
    process.execPath,
    [
      path.join('node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--config',
      'bench/vitest.bench.mts',
      'bench/uiMirror.bench.ts',
    ],
    { ...process.env, UI_MIRROR_DIR: dataDir, UI_MIRROR_RECORDS: String(RECORDS) },
  );
  log(`filled in ${Math.round((Date.now() - started) / 1000)} s`);
}

async function startWeb() {
  const child = spawn(
    process.execPath,
    ['out/main/web.js', '--port', '0', '--no-open', '--data-dir', dataDir],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+\/#secret=[0-9a-f]+/.exec(output);
      if (match) resolve(match[0]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`web mode exited with ${code}:\n${output}`)));
  });
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

const p95 = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)];
};
const median = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const round = (n) => Math.round(n * 10) / 10;

/** Runs `act` and resolves with ms from just before it to the next list's rows painted. */
async function timeListChange(page, act) {
  const before = await page.locator('.grid').getAttribute('data-generation');
  await page.evaluate((generation) => {
    window.__listChange = new Promise((resolve) => {
      const started = performance.now();
      const grid = document.querySelector('.grid');
      const check = () => {
        const now = grid.getAttribute('data-generation');
        if (now !== generation && !grid.querySelector('.grid-row.is-loading')) {
          observer.disconnect();
          // Two frames: the one that lays the rows out, then the one after they were painted.
          requestAnimationFrame(() =>
            requestAnimationFrame(() => resolve(performance.now() - started)),
          );
        }
      };
      const observer = new MutationObserver(check);
      observer.observe(grid, { attributes: true, childList: true, subtree: true });
    });
  }, before);
  await act();
  return page.evaluate(() => window.__listChange);
}

async function main() {
  await ensureMirror();
  let web;
  try {
    web = await startWeb();
  } catch (error) {
    // A mirror written by other migrations than this build's (an edited one is refused): refill.
    if (!/Migration/.test(String(error))) throw error;
    log('the cached mirror does not match this build’s migrations; filling it again');
    args.fresh = true;
    await ensureMirror();
    web = await startWeb();
  }
  const browser = await chromium.launch({
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
  try {
    // Nobody is signed in on this data directory: the first visit may show the first-run screen,
    // whose "Skip for now" is kept as a setting. Then the engine starts again, cold, for the figures.
    const first = await browser.newPage();
    await first.goto(web.url);
    const skip = first.getByRole('button', { name: 'Skip for now' });
    await skip.or(first.locator('.grid-row')).first().waitFor({ timeout: 60_000 });
    if (await skip.isVisible()) await skip.click();
    await first.locator('.grid-row').first().waitFor({ timeout: 60_000 });
    await first.close();
    await web.stop();
    web = await startWeb();

    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // First rows: a paint after the first non-placeholder row exists, from navigation start.
    await page.addInitScript(() => {
      window.__firstRows = new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          if (document.querySelector('.grid-row:not(.is-loading)')) {
            observer.disconnect();
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())));
          }
        });
        observer.observe(document, { childList: true, subtree: true });
      });
    });
    page.on('crash', () => log('the page crashed'));
    page.on('pageerror', (error) => log('page error', error.message));
    await page.goto(web.url);
    const firstRows = await page.evaluate(() => window.__firstRows);
    const shownTotal = Number(await page.locator('.grid').getAttribute('data-total'));
    log(`first rows after ${round(firstRows)} ms; ${shownTotal} records listed`);

    // Filter changes: Status is one status, then another (an indexed filter).
    await page.getByRole('button', { name: /^Filter/ }).click();
    await page.getByLabel('Add a preset').selectOption({ index: 1 });
    await page.getByLabel('Condition of criterion 1').selectOption('is');
    const statuses = await page
      .getByLabel('Values of criterion 1')
      .locator('option')
      .evaluateAll((options) => options.map((o) => o.value));
    const filterSamples = [];
    for (let i = 0; i < RUNS; i += 1) {
      const value = statuses[i % statuses.length];
      filterSamples.push(
        await timeListChange(page, () =>
          page.getByLabel('Values of criterion 1').selectOption(value),
        ),
      );
    }
    log('filter samples (ms)', filterSamples.map(round).join(' '));
    // A custom field's filter reads every record's JSON: not indexed, reported apart.
    await page.getByRole('button', { name: '+ Add criterion' }).click();
    await page.getByLabel('Field of criterion 2').selectOption({ label: 'Category' });
    const customFilter = await timeListChange(page, () =>
      page.getByLabel('Values of criterion 2').selectOption('Network'),
    );
    log(`custom field filter (Category is Network AND Status): ${round(customFilter)} ms`);
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await page.getByRole('button', { name: /^Filter/ }).click();
    await page.waitForFunction(
      (total) => document.querySelector('.grid')?.getAttribute('data-total') === String(total),
      shownTotal,
    );

    // Sort changes on the indexed orders: name and last updated, each both ways.
    const sortSamples = [];
    const sortable = ['Asset name', 'Last updated'];
    for (let i = 0; i < RUNS; i += 1) {
      const header = page.getByRole('columnheader', { name: sortable[i % sortable.length] });
      sortSamples.push(await timeListChange(page, () => header.getByRole('button').click()));
    }
    log('sort samples (ms)', sortSamples.map(round).join(' '));
    const statusSort = await timeListChange(page, () =>
      page.getByRole('columnheader', { name: 'Status' }).getByRole('button').click(),
    );
    const costSort = await timeListChange(page, () =>
      page.getByRole('columnheader', { name: 'Cost' }).getByRole('button').click(),
    );
    log(`sort by status (workflow order): ${round(statusSort)} ms; by cost: ${round(costSort)} ms`);
    await timeListChange(page, () =>
      page.getByRole('columnheader', { name: 'Asset name' }).getByRole('button').click(),
    );

    // A fast scroll from the top to the end in 5 seconds, one step per frame.
    const frames = await page.evaluate(async (duration) => {
      const body = document.querySelector('.grid-body');
      body.scrollTop = 0;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const intervals = [];
      const end = body.scrollHeight - body.clientHeight;
      return new Promise((resolve) => {
        let start = null;
        let last = null;
        const step = (time) => {
          if (start === null) start = time;
          if (last !== null) intervals.push(time - last);
          last = time;
          const progress = Math.min(1, (time - start) / duration);
          body.scrollTop = progress * end;
          if (progress < 1) requestAnimationFrame(step);
          else resolve(intervals);
        };
        requestAnimationFrame(step);
      });
    }, SCROLL_MS);
    await page.waitForTimeout(500);
    const atEnd = await page
      .locator('.grid-row:not(.is-loading)')
      .last()
      .getAttribute('aria-rowindex');
    log(`${frames.length} frames in the scroll; last row shown after it: ${atEnd}`);

    const cdp = await page.context().newCDPSession(page);
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize: afterGc } = await cdp.send('Runtime.getHeapUsage');
    log(
      `JS heap after the scroll ${round(usedSize / 1048576)} MB, after a GC ${round(afterGc / 1048576)} MB`,
    );

    const medianFrame = median(frames);
    console.log(
      JSON.stringify({
        records: shownTotal,
        first_rows_ms: round(firstRows),
        filter_p95_ms: round(p95(filterSamples)),
        sort_p95_ms: round(p95(sortSamples)),
        scroll_fps_median: round(1000 / medianFrame),
        longest_frame_ms: round(Math.max(...frames)),
        renderer_mb: round(usedSize / 1048576),
      }),
    );
  } finally {
    await browser.close();
    await web.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
