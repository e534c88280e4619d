// The API emulator's CPU time per record-list call, the way a sync of many endpoint keys calls
// it: every page (per_page 200, ASC(id)) of every custom module, page 1 of every module, then
// page 2 of every module, and so on, `--concurrency` in flight (issue 18: 32 portals of 8 modules
// pull 256 modules side by side). The emulator runs in its own process with the rate limiter off;
// its CPU time (user + system, /proc/PID/stat, so Linux only) over the listing is divided by the
// calls. `sha256` digests every answer's status and bytes in order: two builds that print the
// same one answered the same bytes. Needs a build (`npx electron-vite build`). Prints one JSON
// object. EMULATOR_PROFILE_DIR=DIR writes the emulator's CPU profile there.
//
//   node bench/emulatorCpu.mjs [--portals 32] [--modules 8] [--records 200000] [--concurrency 32]
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    portals: { type: 'string', default: '32' },
    modules: { type: 'string', default: '8' },
    records: { type: 'string', default: '200000' },
    concurrency: { type: 'string', default: '32' },
  },
});
const PER_PAGE = 200;
const SCOPES = 'PMS.portals.READ,PMS.custom_fields.READ';

const child = spawn(
  process.execPath,
  [
    ...(process.env.EMULATOR_PROFILE_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.EMULATOR_PROFILE_DIR}`]
      : []),
    'out/main/emulator.js',
    '--json',
    '--no-rate-limit',
    '--seed',
    '42',
    '--records',
    args.records,
    '--portals',
    args.portals,
    '--modules',
    args.modules,
    '--port',
    '0',
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const facts = await new Promise((resolve, reject) => {
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
    const newline = output.indexOf('\n');
    if (newline !== -1) resolve(JSON.parse(output.slice(0, newline)));
  });
  child.once('exit', (code) => reject(new Error(`the emulator exited with ${code}; built?`)));
});
child.stdout.resume();
// An error below must not leave the emulator running.
process.once('exit', () => child.kill('SIGTERM'));

/** The emulator's CPU seconds so far (USER_HZ is 100 on Linux). */
function emulatorCpuSeconds() {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const { api, accounts } = facts.dcs.us;
async function json(url, init = {}) {
  const response = await fetch(url, init);
  const body = await response.json();
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body;
}
const { code } = await json(`${api}/__emulator/self-client`, {
  method: 'POST',
  headers: { 'X-Emulator-Admin': facts.admin_secret, 'Content-Type': 'application/json' },
  body: JSON.stringify({ scopes: SCOPES }),
});
const issued = await json(`${accounts}/oauth/v2/token`, {
  method: 'POST',
  body: new URLSearchParams({
    code: String(code),
    client_id: facts.client_id,
    client_secret: facts.client_secret,
    grant_type: 'authorization_code',
  }),
});
const headers = { Authorization: `Bearer ${issued.access_token}` };

const modules = [];
const portals = await json(`${api}/api/v3/portals`, { headers });
for (const portal of Array.isArray(portals) ? portals : portals.portals) {
  const listed = await json(
    `${api}/api/v3/portal/${portal.id}/settings/modules?page=1&per_page=100`,
    { headers },
  );
  for (const module of listed.modules) {
    if (module.is_customized)
      modules.push(`/api/v3/portal/${portal.id}/projects/${module.api_name}`);
  }
}
const pagesEach = Math.ceil(Number(args.records) / modules.length / PER_PAGE) + 1;
const paths = [];
for (let page = 1; page <= pagesEach; page++) {
  for (const module of modules) {
    paths.push(`${module}/entities?page=${page}&per_page=${PER_PAGE}&sort_by=ASC(id)`);
  }
}

const loadAtStart = loadavg();
const cpuBefore = emulatorCpuSeconds();
const began = performance.now();
const answers = new Array(paths.length);
let next = 0;
let bytes = 0;
await Promise.all(
  Array.from({ length: Number(args.concurrency) }, async () => {
    while (next < paths.length) {
      const index = next++;
      const response = await fetch(`${api}${paths[index]}`, { headers });
      const body = Buffer.from(await response.arrayBuffer());
      bytes += body.length;
      answers[index] = { status: response.status, body };
    }
  }),
);
const cpu = emulatorCpuSeconds() - cpuBefore;
const wall = (performance.now() - began) / 1000;
const digest = createHash('sha256');
for (const { status, body } of answers) digest.update(`${status}\n`).update(body);
const failed = answers.filter((answer) => answer.status !== 200).length;
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));

console.log(
  JSON.stringify({
    benchmark: 'emulatorCpu',
    calls: paths.length,
    emulator_cpu_ms_per_call: Number(((1000 * cpu) / paths.length).toFixed(2)),
    emulator_cpu_s: Number(cpu.toFixed(2)),
    wall_s: Number(wall.toFixed(2)),
    failed,
    modules: modules.length,
    records: Number(args.records),
    megabytes: Number((bytes / 1e6).toFixed(1)),
    concurrency: Number(args.concurrency),
    sha256: digest.digest('hex').slice(0, 16),
    load_average_at_start: loadAtStart.map((n) => Number(n.toFixed(2))),
    load_average: loadavg().map((n) => Number(n.toFixed(2))),
  }),
);
