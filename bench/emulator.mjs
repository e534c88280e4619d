// Measures the API emulator where every test and benchmark leans on it: start-up with a large
// data set (spawn to the --json line) and record lists (per_page 200, keep-alive, concurrent),
// without and with a filter. Needs a build (`npx electron-vite build`). Prints one JSON object.
//
//   node bench/emulator.mjs [--records 100000] [--requests 4000] [--concurrency 8]
import { spawn } from 'node:child_process';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '4000' },
    concurrency: { type: 'string', default: '8' },
  },
});
const RECORDS = Number(args.records);
const REQUESTS = Number(args.requests);
const CONCURRENCY = Number(args.concurrency);
const PER_PAGE = 200;
const SCOPES = 'PMS.portals.READ,PMS.portals.CREATE,PMS.custom_fields.READ';
/** Sequential (update one record, then list a page) rounds: the cost of cache invalidation. */
const WRITE_ROUNDS = 200;
const FILTER = JSON.stringify({
  criteria: [
    { field_name: 'cf_category', criteria_condition: 'is', value: ['Hardware', 'Network'] },
    { field_name: 'status', criteria_condition: 'all_open' },
    { field_name: 'name', criteria_condition: 'contains', value: ['a'] },
  ],
  pattern: '(1 AND 2) OR 3',
});

async function start() {
  const began = performance.now();
  const child = spawn(
    process.execPath,
    [
      ...(process.env.EMULATOR_NODE_ARGS ? process.env.EMULATOR_NODE_ARGS.split(' ') : []),
      'out/main/emulator.js',
      '--json',
      '--records',
      String(RECORDS),
      '--no-rate-limit',
      '--auto-approve',
      '--port',
      '0',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const facts = await new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk) => {
      output += chunk;
      const newline = output.indexOf('\n');
      if (newline === -1) return;
      child.stdout.off('data', onData);
      try {
        resolve(JSON.parse(output.slice(0, newline)));
      } catch (error) {
        reject(new Error(`The emulator printed no JSON line: ${output.slice(0, 200)} (${error})`));
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`The emulator exited with ${code}`)));
  });
  child.stdout.resume();
  return { child, facts, startupMs: performance.now() - began };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** One request; the body is read fully (and parsed only when `json`). */
function request(url, { method = 'GET', headers = {}, body, json = true } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks = [];
      let bytes = 0;
      res.on('data', (chunk) => {
        bytes += chunk.length;
        if (json) chunks.push(chunk);
      });
      res.on('end', () => {
        const text = json ? Buffer.concat(chunks).toString('utf8') : '';
        resolve({
          status: res.statusCode,
          headers: res.headers,
          bytes,
          body: json && text ? JSON.parse(text) : undefined,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

/** An access token: the admin Self Client route, else the OAuth flow with --auto-approve. */
async function accessToken(facts) {
  const dc = facts.dcs.us;
  let code;
  const self = await request(`${dc.api}/__emulator/self-client`, {
    method: 'POST',
    headers: { 'X-Emulator-Admin': facts.admin_secret, 'Content-Type': 'application/json' },
    body: JSON.stringify({ scopes: SCOPES }),
  });
  let redirectUri;
  if (self.status === 200 && self.body?.code) {
    code = self.body.code;
  } else {
    const auth = new URL(`${dc.accounts}/oauth/v2/auth`);
    auth.search = new URLSearchParams({
      scope: SCOPES,
      client_id: facts.client_id,
      response_type: 'code',
      access_type: 'offline',
      redirect_uri: facts.redirect_uri,
    }).toString();
    const consent = await request(auth, { json: false });
    const location = consent.headers.location;
    if (!location)
      throw new Error(`No Self Client route and no auto-approved redirect (${consent.status}).`);
    code = new URL(location, dc.accounts).searchParams.get('code');
    redirectUri = facts.redirect_uri;
  }
  const form = new URLSearchParams({
    code,
    client_id: facts.client_id,
    client_secret: facts.client_secret,
    grant_type: 'authorization_code',
    ...(redirectUri ? { redirect_uri: redirectUri } : {}),
  });
  const token = await request(`${dc.accounts}/oauth/v2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  if (!token.body?.access_token) throw new Error(`No access token: ${JSON.stringify(token.body)}`);
  return token.body.access_token;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * `total` requests spread over `concurrency` workers, each asking for the next URL of `urls` in
 * turn (so every page of the list is asked for, not one page again and again).
 */
async function run(urls, headers, total, concurrency) {
  const latencies = [];
  let next = 0;
  let bytes = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const url = urls[next++ % urls.length];
        const t0 = performance.now();
        const reply = await request(url, { headers, json: false });
        if (reply.status !== 200) throw new Error(`${url} answered ${reply.status}`);
        latencies.push(performance.now() - t0);
        bytes += reply.bytes;
      }
    }),
  );
  const elapsed = performance.now() - began;
  const sorted = latencies.sort((a, b) => a - b);
  const round = (ms) => Math.round(ms * 100) / 100;
  return {
    rps: Math.round((total / elapsed) * 1000),
    p50_ms: round(percentile(sorted, 50)),
    p95_ms: round(percentile(sorted, 95)),
    mean_bytes: Math.round(bytes / total),
  };
}

const { child, facts, startupMs } = await start();
try {
  const token = await accessToken(facts);
  const headers = { Authorization: `Bearer ${token}` };
  const base = `${facts.dcs.us.api}/api/v3/portal/${facts.portals[0]}/projects/assets`;

  /** Every page of a list, and the time its first (cold) request took. */
  async function pages(query) {
    const t0 = performance.now();
    const first = await request(`${base}/entities?per_page=${PER_PAGE}${query}`, { headers });
    const coldMs = performance.now() - t0;
    if (first.status !== 200)
      throw new Error(`list answered ${first.status}: ${JSON.stringify(first.body)}`);
    const total = first.body.page_info.page_count;
    const count = Math.max(1, Math.ceil(total / PER_PAGE));
    const urls = Array.from(
      { length: count },
      (_, i) => `${base}/entities?per_page=${PER_PAGE}&page=${i + 1}${query}`,
    );
    return { urls, total, coldMs };
  }

  const plain = await pages('');
  const filtered = await pages(`&filter=${encodeURIComponent(FILTER)}`);
  // One pass over every page first: the numbers below are for a warmed emulator.
  const coldPlain = await run(plain.urls, headers, plain.urls.length, CONCURRENCY);
  const coldFiltered = await run(filtered.urls, headers, filtered.urls.length, CONCURRENCY);
  const list = await run(plain.urls, headers, REQUESTS, CONCURRENCY);
  const listFiltered = await run(filtered.urls, headers, REQUESTS, CONCURRENCY);

  // Each update drops the id lists and that record's JSON; the next list rebuilds what it needs.
  const someId = (await request(plain.urls[0], { headers })).body.entities[0].id;
  const began = performance.now();
  for (let i = 0; i < WRITE_ROUNDS; i++) {
    const patch = await request(`${base}/entities/${someId}`, {
      method: 'PATCH',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ description: `bench round ${i}` }),
    });
    if (patch.status !== 200) throw new Error(`PATCH answered ${patch.status}`);
    const listed = await request(plain.urls[i % plain.urls.length], { headers, json: false });
    if (listed.status !== 200) throw new Error(`list answered ${listed.status}`);
  }
  const writeListMs = (performance.now() - began) / WRITE_ROUNDS;

  console.log(
    JSON.stringify({
      benchmark: 'emulator',
      records: RECORDS,
      startup_ms: Math.round(startupMs),
      list_rps: list.rps,
      list_filtered_rps: listFiltered.rps,
      per_page: PER_PAGE,
      concurrency: CONCURRENCY,
      requests: REQUESTS,
      module_records: plain.total,
      filtered_records: filtered.total,
      pages: plain.urls.length,
      filtered_pages: filtered.urls.length,
      first_list_ms: Math.round(plain.coldMs * 10) / 10,
      first_filtered_list_ms: Math.round(filtered.coldMs * 10) / 10,
      first_pass_rps: coldPlain.rps,
      first_pass_filtered_rps: coldFiltered.rps,
      list_p50_ms: list.p50_ms,
      list_p95_ms: list.p95_ms,
      list_filtered_p50_ms: listFiltered.p50_ms,
      list_filtered_p95_ms: listFiltered.p95_ms,
      page_bytes: list.mean_bytes,
      update_then_list_ms: Math.round(writeListMs * 100) / 100,
    }),
  );
} finally {
  agent.destroy();
  child.kill();
}
