// Measures web mode's cost: start-up (spawn to printed address, including the store opening and
// migrating a fresh data directory) and contract call round trips over HTTP, sequential and
// concurrent. Needs a build (`npm run build`). Prints one JSON object.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const SEQUENTIAL_CALLS = 2000;
const CONCURRENT_CALLS = 4000;
const CONCURRENCY = 16;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(latencies, elapsedMs) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const round = (ms) => Math.round(ms * 1000) / 1000;
  return {
    calls: latencies.length,
    p50_ms: round(percentile(sorted, 50)),
    p95_ms: round(percentile(sorted, 95)),
    p99_ms: round(percentile(sorted, 99)),
    calls_per_s: Math.round((latencies.length / elapsedMs) * 1000),
  };
}

async function start(dataDir) {
  const began = performance.now();
  const child = spawn(process.execPath, ['out/main/web.js', '--no-open', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+\/#secret=[0-9a-f]+/.exec(output);
      if (match) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`web mode exited with ${code}`)));
  });
  return { child, url: new URL(url), startupMs: performance.now() - began };
}

async function timedCall(base, secret, name, body) {
  const began = performance.now();
  const response = await fetch(`${base}/api/call/${name}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
    body: body === undefined ? '' : JSON.stringify(body),
  });
  const outcome = await response.json();
  if (!outcome.ok) throw new Error(`${name} failed: ${outcome.error.message}`);
  return performance.now() - began;
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-bench-'));
const { child, url, startupMs } = await start(dataDir);
const base = url.origin;
const secret = url.hash.replace('#secret=', '');
try {
  for (let i = 0; i < 200; i++) await timedCall(base, secret, 'app.info'); // warm-up

  const sequential = [];
  let began = performance.now();
  for (let i = 0; i < SEQUENTIAL_CALLS; i++)
    sequential.push(await timedCall(base, secret, 'app.info'));
  const sequentialMs = performance.now() - began;

  const concurrent = [];
  let next = 0;
  began = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < CONCURRENT_CALLS) {
        // Alternate a read and a write so the store's write path is part of the figure.
        const write = next % 2 === 0;
        concurrent.push(
          await timedCall(
            base,
            secret,
            write ? 'settings.set' : 'settings.get',
            write ? { theme: 'dark' } : undefined,
          ),
        );
      }
    }),
  );
  const concurrentMs = performance.now() - began;

  console.log(
    JSON.stringify({
      benchmark: 'web-calls',
      node: process.version,
      cpus: os.cpus().length,
      startup_ms: Math.round(startupMs),
      sequential_app_info: summary(sequential, sequentialMs),
      concurrent_settings_get_set: {
        concurrency: CONCURRENCY,
        ...summary(concurrent, concurrentMs),
      },
    }),
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
