import { parseArgs } from 'node:util';
import type { EmulatorOptions } from './config';

export const EMULATOR_USAGE = `Usage: npm run emulator -- [options]

  --port N              first port (each further data center takes the next); 0 = any free port
  --host H              address to bind (default 127.0.0.1)
  --allow-host a,b      further names requests may address it by (Host header); by default
                        only 127.0.0.1, localhost, [::1] and --host (DNS-rebinding guard)
  --dcs us,eu           data centers to serve, one server each (default us)
  --records N           custom-module records to seed (default 5000)
  --portals N  --modules M   N portals of M custom modules each, the records spread
                        evenly over them (default: the demo's 2 portals of 3 modules)
  --seed N              seed of the deterministic demo data (default 42)
  --time-scale N        server-side time passes N times faster (default 1)
  --unscaled-token-lifetime   access tokens last a real hour whatever --time-scale says
  --data FILE           keep the data in FILE instead of memory
  --auto-approve        the consent page approves at once
  --multi-dc            each data center has its own client secret, and the client may
                        get tokens in every data center (otherwise only in the first)
  --client-id ID  --client-secret S  --redirect-uri URI   the demo client's registration
  --rate-limit N/S      calls per window of S seconds (default 200/120)
  --block S             seconds an endpoint is blocked after exceeding it (default 600)
  --no-rate-limit       turn the rate limit off (benchmarks)
  --admin-secret S      secret for /__emulator/ (default: random, printed)
  --comment-segment S   the literal comment path segment (default "record comments")
  --strict-oauth        refuse a token refresh whose parameters are in the form body (the
                        spec puts them in the query; by default both are accepted)
  --json                print the addresses and credentials as one JSON line first`;

function number(
  value: string | undefined,
  name: string,
  check: (n: number) => boolean,
): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || !check(parsed))
    throw new Error(`${name}: "${value}" is not valid.`);
  return parsed;
}

export interface EmulatorCli {
  options: EmulatorOptions;
  json: boolean;
  help: boolean;
}

/** Parses the emulator's command line; throws with a message naming the bad argument. */
export function parseEmulatorArgs(argv: string[]): EmulatorCli {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'allow-host': { type: 'string' },
      dcs: { type: 'string' },
      records: { type: 'string' },
      portals: { type: 'string' },
      modules: { type: 'string' },
      seed: { type: 'string' },
      'time-scale': { type: 'string' },
      'unscaled-token-lifetime': { type: 'boolean' },
      data: { type: 'string' },
      'auto-approve': { type: 'boolean' },
      'multi-dc': { type: 'boolean' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      'redirect-uri': { type: 'string' },
      'rate-limit': { type: 'string' },
      block: { type: 'string' },
      'no-rate-limit': { type: 'boolean' },
      'admin-secret': { type: 'string' },
      'comment-segment': { type: 'string' },
      'strict-oauth': { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const integer = (n: number) => Number.isInteger(n) && n >= 0;
  const options: EmulatorOptions = {};
  const port = number(values.port, '--port', (n) => integer(n) && n <= 65535);
  if (port !== undefined) options.port = port;
  if (values.host) options.host = values.host;
  if (values['allow-host']) {
    options.allowedHosts = values['allow-host']
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
  }
  if (values.dcs) options.dcs = values.dcs.split(',').map((dc) => dc.trim());
  const records = number(values.records, '--records', integer);
  if (records !== undefined) options.records = records;
  const portals = number(values.portals, '--portals', (n) => Number.isInteger(n) && n >= 1);
  if (portals !== undefined) options.portals = portals;
  const modules = number(values.modules, '--modules', (n) => Number.isInteger(n) && n >= 1);
  if (modules !== undefined) options.modules = modules;
  const seed = number(values.seed, '--seed', Number.isInteger);
  if (seed !== undefined) options.seed = seed;
  const timeScale = number(values['time-scale'], '--time-scale', (n) => n > 0);
  if (timeScale !== undefined) options.timeScale = timeScale;
  if (values['unscaled-token-lifetime']) options.unscaledTokenLifetime = true;
  if (values.data) options.data = values.data;
  if (values['auto-approve']) options.autoApprove = true;
  if (values['multi-dc']) options.multiDc = true;
  if (values['client-id']) options.clientId = values['client-id'];
  if (values['client-secret']) options.clientSecret = values['client-secret'];
  if (values['redirect-uri']) options.redirectUri = values['redirect-uri'];
  if (values['admin-secret']) options.adminSecret = values['admin-secret'];
  if (values['comment-segment']) options.commentSegment = values['comment-segment'];
  if (values['strict-oauth']) options.strictOAuthPlacement = true;
  const rateLimit: NonNullable<EmulatorOptions['rateLimit']> = {};
  if (values['rate-limit']) {
    const match = /^(\d+)\/(\d+)$/.exec(values['rate-limit']);
    if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
      throw new Error(
        `--rate-limit: "${values['rate-limit']}" is not CALLS/SECONDS, e.g. 200/120.`,
      );
    }
    rateLimit.calls = Number(match[1]);
    rateLimit.windowMs = Number(match[2]) * 1000;
  }
  const block = number(values.block, '--block', (n) => n > 0);
  if (block !== undefined) rateLimit.blockMs = block * 1000;
  if (values['no-rate-limit']) rateLimit.enabled = false;
  if (Object.keys(rateLimit).length > 0) options.rateLimit = rateLimit;
  return { options, json: values.json ?? false, help: values.help ?? false };
}
