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
//   custom_filter_p95_ms  a filter change on a custom field (Category is X, alternating), p95,
//                     once its index exists
//   custom_sort_p95_ms    a sort change on a custom field (Cost, both ways), p95, index built
//   custom_first_filter_ms, custom_first_sort_ms  the first such change, before any index
//   custom_index_ready_ms the first custom filter to its index being in the schema (the worker
//                     thread builds it: src/main/store/mirror/customFieldIndexer.ts)
//   engine_longest_call_ms_while_indexing  the slowest of app.info calls made every 50 ms
//                     meanwhile: how long the engine's thread stalled, if at all
//
// Each run starts without custom-field indexes (dropped from the cached mirror first). More
// detail (every sample, sorts and filters the targets do not cover) goes to stderr.
// Needs a build (out/main/web.js, or --out DIR):
//
//   electron-vite build --logLevel warn && node bench/ui.mjs [--records 1000000] [--fresh]
//     [--data-dir DIR] [--out DIR]
// Functions passed to page.evaluate run in the page, where these exist.
/* global window, document, MutationObserver, requestAnimationFrame */
import { chromium } from '@playwright/test';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureUiMirror, uiMirrorDir } from './uiMirrorDir.mjs';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    fresh: { type: 'boolean', default: false },
    runs: { type: 'string', default: '20' },
    'data-dir': { type: 'string' },
    out: { type: 'string', default: 'out' },
  },
});
const RECORDS = Number(args.records);
const RUNS = Number(args.runs);
const SCROLL_MS = 5000;
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dataDir = args['data-dir'] ?? uiMirrorDir(RECORDS);
const databaseFile = path.join(dataDir, 'portaldesk.sqlite');
const log = (...parts) => console.error('[bench:ui]', ...parts);

const ensureMirror = () => ensureUiMirror({ records: RECORDS, dataDir, fresh: args.fresh, log });

async function startWeb() {
  const child = spawn(
    process.execPath,
    [path.join(args.out, 'main', 'web.js'), '--port', '0', '--no-open', '--data-dir', dataDir],
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

/** Custom-field indexes in the mirror's schema (read on a connection of the bench's own). */
function customIndexes() {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'records_cf_%'")
      .pluck()
      .all();
  } finally {
    db.close();
  }
}

/** Each run measures the first custom-field lists unindexed: drop what an earlier run built. */
function dropCustomIndexes() {
  const db = new Database(databaseFile, { fileMustExist: true });
  try {
    for (const name of customIndexes()) db.exec(`DROP INDEX ${name}`);
  } finally {
    db.close();
  }
}

/**
 * Waits for an index whose name holds `field`; meanwhile calls app.info every 50 ms over the
 * web bridge. Resolves with ms until the index was there and the slowest call.
 */
async function awaitIndex(web, field, since) {
  const { origin, hash } = new URL(web.url);
  const secret = hash.replace('#secret=', '');
  let slowest = 0;
  for (;;) {
    if (customIndexes().some((name) => name.includes(`_${field}_`))) {
      return { readyMs: performance.now() - since, slowestCallMs: slowest };
    }
    if (performance.now() - since > 300_000) throw new Error(`no index for ${field} after 5 min`);
    const began = performance.now();
    const response = await fetch(`${origin}/api/call/app.info`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
      body: '',
    });
    await response.json();
    slowest = Math.max(slowest, performance.now() - began);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

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
  dropCustomIndexes();
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
    // A custom field's filter: the first change reads every record's JSON (no index yet) and
    // asks for the index; the worker builds it while the engine serves calls.
    await page.getByRole('button', { name: '+ Add criterion' }).click();
    await page.getByLabel('Field of criterion 2').selectOption({ label: 'Category' });
    const firstFilterAt = performance.now();
    const customFirstFilter = await timeListChange(page, () =>
      page.getByLabel('Values of criterion 2').selectOption('Network'),
    );
    log(
      `custom field filter (Category is Network AND Status), no index: ${round(customFirstFilter)} ms`,
    );
    const categoryIndex = await awaitIndex(web, 'cf_category', firstFilterAt);
    log(
      `category index ready ${round(categoryIndex.readyMs)} ms after the filter; slowest app.info meanwhile ${round(categoryIndex.slowestCallMs)} ms`,
    );
    // Category alone: remove the status criterion, then change the category.
    await timeListChange(page, () =>
      page.getByRole('button', { name: 'Remove criterion 1' }).click(),
    );
    const categories = await page
      .getByLabel('Values of criterion 1')
      .locator('option')
      .evaluateAll((options) => options.map((o) => o.value).filter((v) => v !== ''));
    const customFilterSamples = [];
    for (let i = 0; i < RUNS; i += 1) {
      const value = categories[i % categories.length];
      customFilterSamples.push(
        await timeListChange(page, () =>
          page.getByLabel('Values of criterion 1').selectOption(value),
        ),
      );
    }
    log('custom filter samples (ms)', customFilterSamples.map(round).join(' '));
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
    log(`sort by status (workflow order): ${round(statusSort)} ms`);
    // A custom field's sort: the first reads every record (no index yet), later ones walk it.
    const cost = page.getByRole('columnheader', { name: 'Cost' }).getByRole('button');
    const firstSortAt = performance.now();
    const customFirstSort = await timeListChange(page, () => cost.click());
    const costIndex = await awaitIndex(web, 'cf_cost', firstSortAt);
    log(
      `sort by cost, no index: ${round(customFirstSort)} ms; index ready ${round(costIndex.readyMs)} ms after; slowest app.info meanwhile ${round(costIndex.slowestCallMs)} ms`,
    );
    const customSortSamples = [];
    for (let i = 0; i < RUNS; i += 1) {
      customSortSamples.push(await timeListChange(page, () => cost.click()));
    }
    log('custom sort samples (ms)', customSortSamples.map(round).join(' '));
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
        custom_filter_p95_ms: round(p95(customFilterSamples)),
        custom_sort_p95_ms: round(p95(customSortSamples)),
        custom_first_filter_ms: round(customFirstFilter),
        custom_first_sort_ms: round(customFirstSort),
        custom_index_ready_ms: round(categoryIndex.readyMs),
        engine_longest_call_ms_while_indexing: round(
          Math.max(categoryIndex.slowestCallMs, costIndex.slowestCallMs),
        ),
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
