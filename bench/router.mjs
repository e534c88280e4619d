// The event-router sandbox under load (npm run bench:router, after a build): the headless command
// (out/main/router.js) runs alone in its own process with 100 rules; this process posts events to
// its ingress and plays the local HTTP targets. Each event matches exactly one rule (a filter on
// `bucket`, evaluated against all 100 rules) whose two targets both get it, so deliveries = 2 x
// events. Latency is t0 (the event accepted: its `time_in_ms`) to t3 (the request's first byte
// at the target, when Node has its headers), first attempts only.
//
//   node bench/router.mjs [--events 50000] [--rate 500] [--rate-seconds 10] [--concurrency 64]
//
// Two phases: a paced one at --rate events/s (p50_ms, p99_ms: the issue's "p99 <= 50 ms at 500
// events/s"), then --events as fast as the ingress takes them (events_per_s: accepted event to
// last delivery). The ingress allows 500 requests per minute per publisher (the real service's
// limit), so events are spread over 200 publishers, 100 per phase.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '50000' },
    rate: { type: 'string', default: '500' },
    'rate-seconds': { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '64' },
  },
});
const EVENTS = Number(args.events);
const RATE = Number(args.rate);
const RATE_EVENTS = RATE * Number(args['rate-seconds']);
const CONCURRENCY = Number(args.concurrency);
const RULES = 100;
const TARGETS = 20;
const PUBLISHERS_PER_PHASE = 100;

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-bench-router-'));
const now = () => performance.timeOrigin + performance.now();

// -- the targets: one local server, one path per target
const latencies = { paced: [], saturated: [] };
let phase = 'paced';
let deliveries = 0;
let lastDeliveryAt = 0;
const target = http.createServer((request, response) => {
  const t3 = now();
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    const payload = JSON.parse(body);
    if (payload.attempt === 1) latencies[phase].push(t3 - payload.events[0].time_in_ms);
    deliveries += 1;
    lastDeliveryAt = t3;
    response.writeHead(204).end();
  });
});
target.keepAliveTimeout = 60_000;
await new Promise((resolve) => target.listen(0, '127.0.0.1', resolve));
const targetBase = `http://127.0.0.1:${target.address().port}`;

// -- the config: 200 publishers with one event each, 20 targets, 100 rules
const key = (i) => `bench-key-${String(i).padStart(8, '0')}`;
const publishers = Array.from({ length: 2 * PUBLISHERS_PER_PHASE }, (_, i) => ({
  id: String(1000 + i),
  type: 'custom',
  status: 'active',
  api_key: key(i),
  events: [
    { id: String(5000 + i), api_name: 'bench_event', sample: { bucket: 1, n: 1, note: 'x' } },
  ],
}));
const config = {
  account: { org_id: '90001', project: { name: 'bench', environment: 'bench', id: '90002' } },
  publishers,
  targets: Array.from({ length: TARGETS }, (_, i) => ({
    id: String(3000 + i),
    url: `${targetBase}/t${i}`,
    method: 'POST',
    status: 'active',
    headers: {},
    rate_limit: 300,
  })),
  rules: Array.from({ length: RULES }, (_, i) => ({
    id: String(4000 + i),
    status: 'active',
    retry_count: 3,
    events: publishers.map((p) => p.events[0].id),
    filter: {
      operator: 'AND',
      conditions: [{ path: 'bucket', type: 'number', comparator: 'eq', value: i }],
    },
    targets: [String(3000 + (i % TARGETS)), String(3000 + ((i + 1) % TARGETS))],
  })),
};
const configFile = path.join(dir, 'router.json');
writeFileSync(configFile, JSON.stringify(config));

// -- the router, alone in its process
const child = spawn(
  process.execPath,
  [
    // e.g. ROUTER_BENCH_NODE_ARGS=--cpu-prof to profile the router process.
    ...(process.env.ROUTER_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
    // ROUTER_BENCH_ENTRY: another build of the headless command (before/after comparisons).
    process.env.ROUTER_BENCH_ENTRY ?? path.join(root, 'out/main/router.js'),
    '--config',
    configFile,
    '--json',
    '--db',
    path.join(dir, 'router.sqlite'),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const first = await new Promise((resolve, reject) => {
  let text = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    text += chunk;
    if (text.includes('\n')) resolve(JSON.parse(text.split('\n')[0]));
  });
  child.once('exit', (code) =>
    reject(new Error(`out/main/router.js exited with ${code}; run npm run build first.`)),
  );
});
const ingress = new URL(first.ingress);

// -- the publishers' side: keep-alive HTTP posts
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
let refused = 0;
function send(n, publisherIndex) {
  const body = JSON.stringify({ bucket: n % RULES, n, note: 'benchmark event' });
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: ingress.hostname,
        port: ingress.port,
        method: 'POST',
        path: `/publishers/${1000 + publisherIndex}/events/bench_event`,
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-api-key': key(publisherIndex),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode !== 202) refused += 1;
          resolve();
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function waitForDeliveries(expected, timeoutMs) {
  const deadline = now() + timeoutMs;
  while (deliveries < expected && now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * The router process's CPU seconds (user + system) so far, from /proc (Linux); null elsewhere.
 * `thread: true` counts only its main thread (the event loop), not the writer and other threads.
 */
function routerCpuSeconds({ thread = false } = {}) {
  try {
    const file = thread ? `/proc/${child.pid}/task/${child.pid}/stat` : `/proc/${child.pid}/stat`;
    const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length
    ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 100) /
        100
    : null;
};

try {
  // Phase 1: paced at RATE events/s.
  const pacedStart = now();
  const inFlight = [];
  for (let n = 0; n < RATE_EVENTS; n++) {
    const due = pacedStart + (n * 1000) / RATE;
    const wait = due - now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(send(n, PUBLISHERS_PER_PHASE + (n % PUBLISHERS_PER_PHASE)));
  }
  await Promise.all(inFlight);
  await waitForDeliveries(2 * RATE_EVENTS, 60_000);
  const pacedDeliveries = deliveries;

  // Phase 2: as fast as possible.
  phase = 'saturated';
  deliveries = 0;
  const cpuBefore = routerCpuSeconds();
  const mainCpuBefore = routerCpuSeconds({ thread: true });
  const harnessCpuBefore = process.cpuUsage();
  const start = now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < EVENTS) {
        const n = next++;
        await send(n, n % PUBLISHERS_PER_PHASE);
      }
    }),
  );
  const acceptedAt = now();
  await waitForDeliveries(2 * (EVENTS - refused), 300_000);
  const seconds = (lastDeliveryAt - start) / 1000;
  const msPerEvent = (before, after) =>
    before === null || after === null ? null : Math.round(((after - before) * 1e6) / EVENTS) / 1000;
  const routerCpuMsPerEvent = msPerEvent(cpuBefore, routerCpuSeconds());
  const mainCpuMsPerEvent = msPerEvent(mainCpuBefore, routerCpuSeconds({ thread: true }));
  const harnessCpu = process.cpuUsage(harnessCpuBefore);
  const harnessCpuMsPerEvent = Math.round((harnessCpu.user + harnessCpu.system) / EVENTS) / 1000;

  console.log(
    JSON.stringify({
      benchmark: 'router',
      node: process.version,
      cpus: os.cpus().length,
      // PORTALDESK_WEBHOOK_CLIENT=undici (and PORTALDESK_WEBHOOK_PIPELINING=N) in this process's
      // environment reaches the router process: undici's Pool instead of our own client.
      webhook_client:
        process.env.PORTALDESK_WEBHOOK_CLIENT === 'undici'
          ? `undici-pool-pipelining-${process.env.PORTALDESK_WEBHOOK_PIPELINING ?? 1}`
          : 'own',
      rules: RULES,
      targets: TARGETS,
      events: EVENTS,
      deliveries,
      events_per_s: Math.round(EVENTS / seconds),
      accept_per_s: Math.round(EVENTS / ((acceptedAt - start) / 1000)),
      refused,
      p50_ms: percentile(latencies.paced, 50),
      p99_ms: percentile(latencies.paced, 99),
      paced: { events_per_s: RATE, events: RATE_EVENTS, deliveries: pacedDeliveries },
      saturated: {
        p50_ms: percentile(latencies.saturated, 50),
        p99_ms: percentile(latencies.saturated, 99),
        // CPU time of the router process per event (all its threads): less noisy than wall time
        // on a shared machine.
        router_cpu_ms_per_event: routerCpuMsPerEvent,
        router_main_thread_cpu_ms_per_event: mainCpuMsPerEvent,
        harness_cpu_ms_per_event: harnessCpuMsPerEvent,
      },
    }),
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  agent.destroy();
  target.closeAllConnections();
  target.close();
  rmSync(dir, { recursive: true, force: true });
}
